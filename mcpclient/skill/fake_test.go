package skill

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// fakeServer is a scripted MCP server on the far end of an in-memory
// pipe: it answers each method with the result a test set (initialize
// with a server that declares no extension, unless set), and keeps the
// requests it got.
type fakeServer struct {
	mu       sync.Mutex
	results  map[string]string
	requests []*jsonrpc.Request
}

func newFakeServer(*testing.T) *fakeServer { return &fakeServer{results: map[string]string{}} }

func (f *fakeServer) result(method, result string) {
	f.mu.Lock()
	f.results[method] = result
	f.mu.Unlock()
}

func (f *fakeServer) handle(_ context.Context, req *jsonrpc.Request) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, req)
	if r, ok := f.results[req.Method]; ok {
		return json.RawMessage(r), nil
	}
	if req.Method == "initialize" {
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(req.Params, &p)
		return map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{},
			"serverInfo": map[string]any{"name": "fake", "version": "1"}}, nil
	}
	return nil, jsonrpc.ErrMethodNotFound
}

// request returns the first request of method the server got, or nil.
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

// count returns how many requests of method the server got.
func (f *fakeServer) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range f.requests {
		if r.Method == method {
			n++
		}
	}
	return n
}

// connect connects a session to f, closed when the test ends.
func connect(t *testing.T, f *fakeServer, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	leakcheck.Check(t)
	a, b := transport.Pipe()
	conn := jsonrpc.NewConn(b, &jsonrpc.Options{Handler: f.handle})
	t.Cleanup(func() { conn.Close() })
	s, err := mcpclient.Connect(ctx5s(t), a, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
