// Package pages serves the demo server's visit pages on loopback: the
// out-of-band step of URL-mode elicitation
// (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation),
// which a person completes in a browser rather than through the MCP
// client. Loading a page is the whole step; the server then tells the
// client the elicitation is complete.
//
//	p := &pages.Server{}
//	defer p.Close()
//	srv := demoserver.New(&demoserver.Options{VisitPage: p.Page})
//
// The listener opens on 127.0.0.1 on the first page asked for, so a demo
// server that is never asked opens no port. Each page's path holds a
// random token: another program on the machine cannot load it by guessing.
package pages

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// maxPages bounds the pages kept; the oldest is forgotten first.
const maxPages = 256

// Server serves the pages. Its zero value is ready; its methods are safe
// for concurrent use.
type Server struct {
	mu      sync.Mutex
	srv     *http.Server
	base    string
	pages   map[string]func() // token → visited
	order   []string
	closed  bool
	started sync.WaitGroup
}

// ErrClosed is returned by Page after Close.
var ErrClosed = errors.New("pages: closed")

// Page returns the URL of a new page for the elicitation id; loading it
// (GET) calls visited, as often as it is loaded.
func (s *Server) Page(id string, visited func()) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", ErrClosed
	}
	if s.srv == nil {
		if err := s.listen(); err != nil {
			return "", err
		}
	}
	b := make([]byte, 16)
	rand.Read(b)
	token := hex.EncodeToString(b)
	s.pages[token] = visited
	s.order = append(s.order, token)
	if len(s.order) > maxPages {
		delete(s.pages, s.order[0])
		s.order = s.order[1:]
	}
	return s.base + "/visit/" + token + "?id=" + id, nil
}

// listen starts the HTTP server on a free loopback port; s.mu is held.
func (s *Server) listen() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	s.pages = map[string]func(){}
	s.base = "http://" + l.Addr().String()
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 5 * time.Second}
	s.started.Add(1)
	go func() {
		defer s.started.Done()
		s.srv.Serve(l)
	}()
	return nil
}

const donePage = "<!doctype html><title>Done</title><p>Done: the demo server knows you were here. You can close this page.</p>\n"

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	const prefix = "/visit/"
	if r.Method != http.MethodGet || len(r.URL.Path) <= len(prefix) || r.URL.Path[:len(prefix)] != prefix {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	visited := s.pages[r.URL.Path[len(prefix):]]
	s.mu.Unlock()
	if visited == nil {
		http.NotFound(w, r)
		return
	}
	// The page goes out before the visit counts: once it counts, the tool
	// that waited for it answers, and a client done with its call may end
	// this server before a page written afterwards reached the browser.
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(donePage))) // whole once flushed
	w.Write([]byte(donePage))
	http.NewResponseController(w).Flush()
	visited()
}

// Close stops serving and waits for the listener to stop. It is
// idempotent.
func (s *Server) Close() error {
	s.mu.Lock()
	srv := s.srv
	s.closed = true
	s.mu.Unlock()
	var err error
	if srv != nil {
		err = srv.Close()
	}
	s.started.Wait()
	return err
}
