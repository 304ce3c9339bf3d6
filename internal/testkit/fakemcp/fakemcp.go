// Package fakemcp is the scriptable MCP server that plainmcp's tests run
// on the far end of an in-memory pipe: a test sets the answers it needs,
// drives a session, then reads what the client sent. It is for tests
// only (make check keeps it out of every program) and imports the
// standard library, jsonrpc and transport alone, so mcpclient's own
// tests can use it.
//
// A Server answers initialize as a handshake-era server that offers
// tools does, unless a test sets its own answer; it answers every other
// method it has no answer for with method-not-found, as a server that
// does not know it would.
package fakemcp

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// Server is a fake MCP server. Set its answers (Handle, Result) before a
// client sends the request; read what it got at any time. Its methods
// are safe for concurrent use.
type Server struct {
	// Conn is the server's end of the connection, set by Serve: tests
	// send their notifications and requests to the client through it.
	Conn *jsonrpc.Conn

	// Version is the protocolVersion the default initialize answer
	// names; "" echoes the one the client asked for.
	Version string

	t      testing.TB
	newMsg chan struct{} // a token when a notification arrives

	mu       sync.Mutex // guards the four below
	handlers map[string]jsonrpc.Handler
	requests []*jsonrpc.Request
	notes    []*jsonrpc.Request
	waited   int // notes[:waited] are those WaitNote went past
}

// New returns a server with no answers set; WaitNote fails t.
func New(t testing.TB) *Server {
	return &Server{t: t, handlers: map[string]jsonrpc.Handler{}, newMsg: make(chan struct{}, 1)}
}

// Handle answers method with h from now on.
func (f *Server) Handle(method string, h jsonrpc.Handler) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers[method] = h
}

// Result answers method with result, a JSON text, from now on.
func (f *Server) Result(method, result string) {
	f.Handle(method, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(result), nil
	})
}

// Serve serves s in the background until s or f.Conn closes.
func (f *Server) Serve(s jsonrpc.Stream) {
	f.Conn = jsonrpc.NewConn(s, &jsonrpc.Options{Handler: f.handle, Intercept: f.note})
}

// Start serves one end of a new in-memory pipe, closed when the test
// ends, and returns the other end for the client.
func (f *Server) Start(t testing.TB) jsonrpc.Stream {
	a, b := transport.Pipe()
	f.Serve(b)
	t.Cleanup(func() { f.Conn.Close() })
	return a
}

// Connect connects a client to f on a new pipe with connect (given opts),
// bounded by five seconds, and closes the client when the test ends; an
// error fails the test. With mcpclient.Connect it returns a session:
//
//	s := fakemcp.Connect(t, f, mcpclient.Connect, &mcpclient.Options{})
func Connect[C interface{ Close() error }, O any](t testing.TB, f *Server, connect func(context.Context, jsonrpc.Stream, O) (C, error), opts O) C {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := connect(ctx, f.Start(t), opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func (f *Server) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	f.mu.Lock()
	f.requests = append(f.requests, req)
	h := f.handlers[req.Method]
	f.mu.Unlock()
	switch {
	case h != nil:
		return h(ctx, req)
	case req.Method == "initialize":
		return f.initialize(req), nil
	}
	return nil, jsonrpc.ErrMethodNotFound
}

// initialize is the answer to initialize that no test set.
func (f *Server) initialize(req *jsonrpc.Request) any {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(req.Params, &p)
	v := f.Version
	if v == "" {
		v = p.ProtocolVersion
	}
	return map[string]any{
		"protocolVersion": v,
		"capabilities":    map[string]any{"tools": map[string]any{"listChanged": true}},
		"serverInfo":      map[string]any{"name": "fake", "version": "1.0"},
		"instructions":    "be nice",
	}
}

// note records a notification on the read loop, before the next frame
// is read (jsonrpc's Intercept), so that once the loop has ended every
// notification the client sent is recorded: see Drain.
func (f *Server) note(n *jsonrpc.Request) bool {
	f.mu.Lock()
	f.notes = append(f.notes, n)
	f.mu.Unlock()
	select { // never blocks: one token says "look again"
	case f.newMsg <- struct{}{}:
	default:
	}
	return true
}

// Drain waits, up to five seconds, for the server to have read all the
// client sent: call it once the client's end is closed (the session's
// Close), so that a test can say what never came.
func (f *Server) Drain() {
	f.t.Helper()
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	select {
	case <-f.Conn.Done():
	case <-timer.C:
		f.t.Fatal("the server never saw the client's end close")
	}
}

// Requests returns the requests the server got for method, in order.
func (f *Server) Requests(method string) []*jsonrpc.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return only(f.requests, method)
}

// Request returns the first request the server got for method, or nil.
func (f *Server) Request(method string) *jsonrpc.Request {
	if rs := f.Requests(method); len(rs) > 0 {
		return rs[0]
	}
	return nil
}

// Count returns how many requests the server got for method.
func (f *Server) Count(method string) int { return len(f.Requests(method)) }

// ParamsOf returns the params of every request the server got for
// method, each decoded as a JSON object (nil if it is not one).
func (f *Server) ParamsOf(method string) []map[string]any {
	var out []map[string]any
	for _, r := range f.Requests(method) {
		var p map[string]any
		json.Unmarshal(r.Params, &p)
		out = append(out, p)
	}
	return out
}

// Notes returns the notifications the server got for method, in order.
func (f *Server) Notes(method string) []*jsonrpc.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return only(f.notes, method)
}

// WaitNote waits up to five seconds for the next notification of method
// after the last one WaitNote returned, failing the test if none comes.
func (f *Server) WaitNote(method string) *jsonrpc.Request {
	f.t.Helper()
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	for {
		if n := f.nextNote(method); n != nil {
			return n
		}
		select {
		case <-f.newMsg:
		case <-timer.C:
			f.t.Fatalf("the server never got %s", method)
			return nil
		}
	}
}

// nextNote returns the first notification of method that WaitNote has
// not gone past yet, and goes past it.
func (f *Server) nextNote(method string) *jsonrpc.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := f.waited; i < len(f.notes); i++ {
		if f.notes[i].Method == method {
			f.waited = i + 1
			return f.notes[i]
		}
	}
	f.waited = len(f.notes)
	return nil
}

func only(msgs []*jsonrpc.Request, method string) []*jsonrpc.Request {
	var out []*jsonrpc.Request
	for _, m := range msgs {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}
