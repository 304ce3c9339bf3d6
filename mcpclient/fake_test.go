package mcpclient

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// fakeServer is a scriptable MCP server on the far end of an in-memory
// pipe: each test sets the handlers it needs and reads what the client sent.
type fakeServer struct {
	t    *testing.T
	conn *jsonrpc.Conn

	mu       sync.Mutex
	handlers map[string]jsonrpc.Handler
	notes    []*jsonrpc.Request
	noteCh   chan *jsonrpc.Request
	requests []*jsonrpc.Request
	version  string // answered to initialize; "" echoes the client's
}

func newFakeServer(t *testing.T) *fakeServer {
	return &fakeServer{t: t, handlers: map[string]jsonrpc.Handler{}, noteCh: make(chan *jsonrpc.Request, 100)}
}

func (f *fakeServer) handle(method string, h jsonrpc.Handler) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers[method] = h
}

func (f *fakeServer) result(method string, result string) {
	f.handle(method, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(result), nil
	})
}

func (f *fakeServer) serve(s jsonrpc.Stream) {
	f.conn = jsonrpc.NewConn(s, &jsonrpc.Options{
		Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			f.mu.Lock()
			f.requests = append(f.requests, req)
			h := f.handlers[req.Method]
			f.mu.Unlock()
			if h != nil {
				return h(ctx, req)
			}
			if req.Method == "initialize" {
				var p struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				json.Unmarshal(req.Params, &p)
				v := f.version
				if v == "" {
					v = p.ProtocolVersion
				}
				return map[string]any{
					"protocolVersion": v,
					"capabilities":    map[string]any{"tools": map[string]any{"listChanged": true}},
					"serverInfo":      map[string]any{"name": "fake", "version": "1.0"},
					"instructions":    "be nice",
				}, nil
			}
			return nil, jsonrpc.ErrMethodNotFound
		},
		OnNotification: func(ctx context.Context, n *jsonrpc.Request) {
			f.mu.Lock()
			f.notes = append(f.notes, n)
			f.mu.Unlock()
			f.noteCh <- n
		},
	})
}

// request returns the first request the server received for method.
func (f *fakeServer) request(method string) *jsonrpc.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.requests {
		if r.Method == method {
			return r
		}
	}
	return nil
}

// waitNote waits for a notification with the given method.
func (f *fakeServer) waitNote(method string) *jsonrpc.Request {
	f.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case n := <-f.noteCh:
			if n.Method == method {
				return n
			}
		case <-timeout:
			f.t.Fatalf("server never got %s", method)
			return nil
		}
	}
}

// connect starts a fake server and a session with opts over a pipe.
func connect(t *testing.T, f *fakeServer, opts *Options) *Session {
	t.Helper()
	checkGoroutines(t)
	return connectBubbled(t, f, opts)
}

// connectBubbled is connect for a test in a synctest bubble, which has no
// leak check: the bubble waits for its own goroutines to end, and the
// check's two seconds would pass on the bubble's clock while a goroutine
// outside it (another test's) winds down.
func connectBubbled(t *testing.T, f *fakeServer, opts *Options) *Session {
	t.Helper()
	a, b := transport.Pipe()
	f.serve(b)
	t.Cleanup(func() { f.conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := Connect(ctx, a, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func checkGoroutines(t *testing.T) { t.Helper(); leakcheck.Check(t) }

func ctx5s(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}
