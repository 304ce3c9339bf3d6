package task

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// fakeServer is a scriptable MCP server on the far end of an in-memory
// pipe: each test sets the handlers it needs and reads what the client
// sent. It answers initialize with the version the client asked for.
type fakeServer struct {
	t    *testing.T
	conn *jsonrpc.Conn

	mu       sync.Mutex // guards the three below
	handlers map[string]jsonrpc.Handler
	notes    []*jsonrpc.Request
	requests []*jsonrpc.Request
}

func newFakeServer(t *testing.T) *fakeServer {
	return &fakeServer{t: t, handlers: map[string]jsonrpc.Handler{}}
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
			return nil, jsonrpc.ErrMethodNotFound
		},
		OnNotification: func(ctx context.Context, n *jsonrpc.Request) {
			f.mu.Lock()
			f.notes = append(f.notes, n)
			f.mu.Unlock()
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

// paramsOf returns the params of every request the server got for method.
func (f *fakeServer) paramsOf(method string) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []map[string]any
	for _, r := range f.requests {
		if r.Method == method {
			var p map[string]any
			json.Unmarshal(r.Params, &p)
			out = append(out, p)
		}
	}
	return out
}

func (f *fakeServer) count(method string) int { return len(f.paramsOf(method)) }

// connect starts a fake server and a session with opts over a pipe; both
// end with the test, which fails if a goroutine outlives them.
func connect(t *testing.T, f *fakeServer, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	leakcheck.Check(t)
	a, b := transport.Pipe()
	f.serve(b)
	t.Cleanup(func() { f.conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := mcpclient.Connect(ctx, a, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func ctx5s(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

const discoverOK = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},
	"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-server","version":"2"}}}`

// modernServer is a fake stateless-era server.
func modernServer(t *testing.T) *fakeServer {
	f := newFakeServer(t)
	f.result("server/discover", discoverOK)
	return f
}

func fail(code int64, msg string) jsonrpc.Handler {
	return func(context.Context, *jsonrpc.Request) (any, error) { return nil, jsonrpc.NewError(code, "%s", msg) }
}

// sequence answers each request with the next result, the last one again
// once they run out.
func sequence(results ...string) jsonrpc.Handler {
	var mu sync.Mutex
	n := 0
	return func(context.Context, *jsonrpc.Request) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		r := results[min(n, len(results)-1)]
		n++
		return json.RawMessage(r), nil
	}
}

func fastTasks() *Options { return &Options{MinPollInterval: time.Millisecond} }
