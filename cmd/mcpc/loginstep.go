package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// loopbackStep is mcpc's user step: it prints the authorization URL,
// opens it in the browser, and waits for the redirect that carries the
// flow's state, whichever comes first of the loopback listener and a
// line pasted on stdin (for a browser on another machine, over SSH, that
// cannot reach this one's loopback). Requests to the listener with no
// state, or another, are answered with an error page and ignored: a
// stray or forged request does not end the login. The wait ends with
// the flow's context, which the user step's limit bounds.
type loopbackStep struct {
	name   string // the server, for the pages and messages
	ln     net.Listener
	srv    *http.Server
	stdin  io.Reader // nil: no pasting
	stderr io.Writer
	// show, when set, hands the authorization URL to the person another
	// way (mcpc web's page) instead of the terminal and the browser.
	show func(authURL string) error

	mu     sync.Mutex
	state  string        // the state of the flow under way
	got    chan *url.URL // its redirect, once
	closed chan struct{} // closed by Close: no redirect will come
	once   sync.Once
}

// newLoopbackStep listens on 127.0.0.1 at port (0: a free one).
func newLoopbackStep(name string, port int, stdin io.Reader, stderr io.Writer) (*loopbackStep, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("listening for the redirect: %w", err)
	}
	s := &loopbackStep{name: name, ln: ln, stdin: stdin, stderr: stderr, got: make(chan *url.URL, 1), closed: make(chan struct{})}
	s.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(ln)
	return s, nil
}

// redirectURL is where the authorization server sends the browser.
func (s *loopbackStep) redirectURL() string { return "http://" + s.ln.Addr().String() + "/callback" }

// closeGrace bounds how long Close lets a page being written finish.
const closeGrace = time.Second

// Close stops the listener, and ends a wait for the redirect: the
// login that waited has given up (its caller's context ended), and the
// flow, which the oauth package runs apart from that caller, must not
// wait on for a listener that is gone. The page that answered the redirect may
// still be on its way when the login it completed ends: it gets a moment
// to reach the browser (which would show a reset connection otherwise),
// and no more.
func (s *loopbackStep) Close() error {
	s.once.Do(func() { close(s.closed) })
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		return s.srv.Close()
	}
	return nil
}

// page writes a small HTML page.
func page(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><title>mcpc</title><p>%s</p>\n", html.EscapeString(text))
}

func (s *loopbackStep) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/callback" {
		page(w, http.StatusNotFound, "mcpc: nothing here.")
		return
	}
	u := *r.URL
	u.Scheme, u.Host = "http", s.ln.Addr().String()
	if !s.deliver(&u) {
		page(w, http.StatusBadRequest, "mcpc: this is not the answer to the authorization mcpc is waiting for; it was ignored.")
		return
	}
	if r.URL.Query().Get("error") != "" {
		page(w, http.StatusOK, "mcpc: the authorization of "+s.name+" was refused; see the terminal.")
		return
	}
	page(w, http.StatusOK, "mcpc: authorization of "+s.name+" received; you may close this window.")
}

// deliver hands u to the waiting step if it carries the flow's state, and
// reports whether it did.
func (s *loopbackStep) deliver(u *url.URL) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == "" || u.Query().Get("state") != s.state {
		return false
	}
	select {
	case s.got <- u:
		s.state = "" // one answer per flow
		return true
	default:
		return false
	}
}

// Authorize implements oauth.UserStep.
func (s *loopbackStep) Authorize(ctx context.Context, authURL *url.URL) (*url.URL, error) {
	s.mu.Lock()
	s.state = authURL.Query().Get("state")
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.state = ""
		s.mu.Unlock()
	}()
	if err := s.present(authURL); err != nil {
		return nil, err
	}
	select {
	case u := <-s.got:
		return u, nil
	case <-s.closed:
		return nil, errLoginEnded
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// present gives the person the authorization URL: to show, or at the
// terminal (and in the browser, and a pasted answer taken).
func (s *loopbackStep) present(authURL *url.URL) error {
	if s.show != nil {
		return s.show(authURL.String())
	}
	fmt.Fprintf(s.stderr, "Open this URL to authorize mcpc at %s:\n  %s\n", s.name, authURL)
	if err := openBrowser(authURL.String()); err != nil {
		fmt.Fprintf(s.stderr, "(could not open a browser: %v)\n", err)
	}
	if s.stdin != nil {
		fmt.Fprintf(s.stderr, "Waiting for the browser. If it runs on another machine, paste here the address it was sent to (%s?...):\n", s.redirectURL())
		go s.readPasted(s.stdin)
		s.stdin = nil // one reader for the process's stdin
	}
	return nil
}

// errLoginEnded ends a flow whose login has given up waiting.
var errLoginEnded = errors.New("the login ended before the redirect came")

// maxPasted bounds a pasted line.
const maxPasted = 16 << 10

// readPasted reads pasted redirect URLs, one a line, until one carries
// the flow's state or the input ends. It may outlive the login, blocked
// on the terminal, until the process exits: nothing it holds matters
// then.
func (s *loopbackStep) readPasted(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1024), maxPasted)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		u, err := url.Parse(line)
		if err != nil || u.Query().Get("state") == "" {
			fmt.Fprintln(s.stderr, "(that is not the address of the redirect; paste the whole address the browser was sent to)")
			continue
		}
		if s.deliver(u) {
			return
		}
		fmt.Fprintln(s.stderr, "(that address is not the answer to this authorization; ignored)")
	}
}
