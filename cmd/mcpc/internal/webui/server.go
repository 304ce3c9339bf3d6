package webui

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Options configures a Server. Registry is required.
type Options struct {
	// Registry is the servers the page shows. Build it with
	// Options.Session.UI set, so servers know the page renders apps, and
	// with WrapStream from Server.Wrap (or Trace.Wrap) for the wire.
	Registry *toolreg.Registry
	// Trace records the frames the page shows; nil shows none.
	Trace *Trace
	// Inbox holds what servers say and ask on their own, for the page;
	// nil shows none. Hook each server's session options into it.
	Inbox *Inbox
	// Addr is the page's listening address: a loopback IP and a port
	// ("127.0.0.1:0", the default, picks a free port).
	Addr string
	// Yes lets calls the person did not start (from an app, from a
	// ?call= link) run without asking.
	Yes bool
	// TrustAnnotations reports whether the host believes server's tool
	// annotations: such a call of a tool that server marks read-only then
	// runs without asking too. Nil believes no server's: annotations are
	// a server's word about its own tools.
	TrustAnnotations func(server string) bool
	// Auth logs the person in to a server that needs authorization: the
	// page shows such a server's "Log in" button only when it is set.
	Auth Auth
	// Logger receives what the page's apps log and the CSP sources the
	// page refused. Nil is silent.
	Logger *slog.Logger
}

// Server is the page and its sandbox origin, each on its own loopback
// listener. Its methods are safe for concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	token   string // in every page and API path: /t/<token>/
	stoken  string // the sandbox origin's own, so a leak of one is not the other
	host    string // the page's host:port, the only Host header it accepts
	shost   string // the sandbox's
	page    *http.Server
	sandbox *http.Server
	running runningCalls // the person's calls in flight
	logins  *logins      // the person's logins under way

	closeOnce sync.Once
	closeErr  error
}

// ErrNotLoopback is returned by Start for an address that is not a
// loopback IP: the page holds the servers' tools and must not be reachable
// from another machine.
var ErrNotLoopback = errors.New("webui: the address is not a loopback IP")

// Start listens on the page's address and on a second loopback port for
// the sandbox origin, and serves both until Close.
func Start(opts *Options) (*Server, error) {
	s := &Server{opts: *opts, log: opts.Logger, logins: newLogins()}
	if s.log == nil {
		s.log = slog.New(discard{})
	}
	if s.opts.Addr == "" {
		s.opts.Addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(s.opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("webui: address %q: %w", s.opts.Addr, err)
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("%w: %q", ErrNotLoopback, s.opts.Addr)
	}
	s.token, s.stoken = randomToken(), randomToken()
	pl, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("webui: %w", err)
	}
	sl, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		pl.Close()
		return nil, fmt.Errorf("webui: sandbox origin: %w", err)
	}
	s.host, s.shost = pl.Addr().String(), sl.Addr().String()
	s.page = &http.Server{Handler: s.pageHandler(), ReadHeaderTimeout: 10 * time.Second}
	s.sandbox = &http.Server{Handler: s.sandboxHandler(), ReadHeaderTimeout: 10 * time.Second}
	go s.page.Serve(pl)
	go s.sandbox.Serve(sl)
	return s, nil
}

// URL is the page's address, token included: the one thing to open.
func (s *Server) URL() string { return "http://" + s.host + "/t/" + s.token + "/" }

// SandboxOrigin is the origin apps run on, apart from the page's.
func (s *Server) SandboxOrigin() string { return "http://" + s.shost }

// Close ends the logins under way and stops both listeners and the
// requests in flight. It is idempotent.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.logins.close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s.closeErr = errors.Join(s.page.Shutdown(ctx), s.sandbox.Shutdown(ctx))
		s.page.Close()
		s.sandbox.Close()
	})
	return s.closeErr
}

func randomToken() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("webui: no randomness: " + err.Error()) // crypto/rand never fails on supported systems
	}
	return hex.EncodeToString(b)
}

// guard refuses a request whose Host is not host (DNS rebinding: a
// foreign name resolving to 127.0.0.1 carries its own Host), whose path
// does not start with /dir/token/, or that changes state (any
// method but GET and HEAD) without an Origin that is the page's own.
func guard(host, dir, token, origin string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host != host {
			http.Error(w, "wrong Host", http.StatusMisdirectedRequest)
			return
		}
		// /<dir>/<token>/<rest>, the token compared in constant time.
		seg, ok := strings.CutPrefix(r.URL.Path, "/"+dir+"/")
		got, rest, _ := strings.Cut(seg, "/")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Header.Get("Origin") != origin {
			http.Error(w, "wrong Origin", http.StatusForbidden)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/" + rest
		next.ServeHTTP(w, r2)
	})
}

// Wrap returns a registry WrapStream that records every frame in t.
func (t *Trace) Wrap(server string, st jsonrpc.Stream) jsonrpc.Stream {
	return &tracedStream{Stream: st, t: t, server: server}
}

type discard struct{}

func (discard) Enabled(context.Context, slog.Level) bool  { return false }
func (discard) Handle(context.Context, slog.Record) error { return nil }
func (d discard) WithAttrs([]slog.Attr) slog.Handler      { return d }
func (d discard) WithGroup(string) slog.Handler           { return d }
