package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// fakeTool is a tool of a fakeServer: its definition as tools/list shows
// it, and the result of a call (a CallToolResult as JSON).
type fakeTool struct {
	def  string
	call func(ctx context.Context, args json.RawMessage) string
	fail func() error // if set and not nil, the call's JSON-RPC error
}

// fakeServer is an MCP server of the handshake era with the tools given,
// counting the tools/call requests in flight and the most there were.
type fakeServer struct {
	tools    map[string]fakeTool
	order    []string
	calls    atomic.Int64
	inFlight atomic.Int64
	maxIn    atomic.Int64
}

func (s *fakeServer) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "initialize":
		return json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}`), nil
	case "tools/list":
		var defs []json.RawMessage
		for _, n := range s.order {
			defs = append(defs, json.RawMessage(s.tools[n].def))
		}
		return map[string]any{"tools": defs}, nil
	case "tools/call":
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		json.Unmarshal(req.Params, &p)
		tool, ok := s.tools[p.Name]
		if !ok {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "no tool %q", p.Name)
		}
		s.calls.Add(1)
		n := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for m := s.maxIn.Load(); n > m && !s.maxIn.CompareAndSwap(m, n); m = s.maxIn.Load() {
		}
		if tool.fail != nil {
			if err := tool.fail(); err != nil {
				return nil, err
			}
		}
		return json.RawMessage(tool.call(ctx, p.Arguments)), nil
	}
	return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "no method %q", req.Method)
}

// newFakeServer returns a registry of one fakeServer named "fake" with
// the tools given (name → tool), closed when the test ends.
func newFakeServer(t *testing.T, opts *toolreg.Options, tools ...fakeTool) (*toolreg.Registry, *fakeServer) {
	t.Helper()
	s := &fakeServer{tools: map[string]fakeTool{}}
	for _, tool := range tools {
		var d struct{ Name string }
		json.Unmarshal([]byte(tool.def), &d)
		s.tools[d.Name] = tool
		s.order = append(s.order, d.Name)
	}
	var conns []*jsonrpc.Conn
	var mu sync.Mutex
	o := *opts
	o.Dial = func(ctx context.Context, sc *toolreg.ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		c := jsonrpc.NewConn(server, &jsonrpc.Options{Handler: s.handle, MaxPeerRequests: 100_000})
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
		return mcpclient.Connect(ctx, client, so)
	}
	cfg := &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "fake", Type: "memory"}}}
	reg, err := toolreg.New(context.Background(), cfg, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		reg.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return reg, s
}

// textResult is a CallToolResult of one text, as JSON.
func textResult(text string) string {
	b, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": text}}})
	return string(b)
}

// toolDef is a tools/list entry with the given annotations (JSON, or "").
func toolDef(name, annotations string) string {
	s := fmt.Sprintf(`{"name":%q,"description":"the %s tool","inputSchema":{"type":"object"}`, name, name)
	if annotations != "" {
		s += `,"annotations":` + annotations
	}
	return s + "}"
}
