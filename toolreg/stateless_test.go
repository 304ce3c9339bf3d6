package toolreg

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// modernServer is a small server of the stateless era (2026-07-28): no
// initialize, and change notifications only on a subscriptions/listen
// request the client keeps open. Its tool "grow" adds the tool "beta".
type modernServer struct {
	grown     atomic.Bool
	lists     atomic.Int64
	listening chan struct{} // a listen request is open
	grew      chan struct{}
	wg        sync.WaitGroup
}

func (m *modernServer) dial(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	client, server := transport.Pipe()
	var conn *jsonrpc.Conn
	conn = jsonrpc.NewConn(server, &jsonrpc.Options{Handler: func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		switch r.Method {
		case "server/discover":
			return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],
				"capabilities":{"tools":{"listChanged":true}},"instructions":"stateless",
				"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern","version":"1"}}}`), nil
		case "tools/list":
			m.lists.Add(1)
			tools := `{"name":"alpha","inputSchema":{"type":"object"}},{"name":"grow","inputSchema":{"type":"object"}}`
			if m.grown.Load() {
				tools += `,{"name":"beta","inputSchema":{"type":"object"}}`
			}
			return json.RawMessage(`{"resultType":"complete","tools":[` + tools + `]}`), nil
		case "tools/call":
			m.grown.Store(true)
			m.grew <- struct{}{}
			return json.RawMessage(`{"resultType":"complete","content":[{"type":"text","text":"grown"}]}`), nil
		case "subscriptions/listen":
			select {
			case m.listening <- struct{}{}:
			default:
			}
			for {
				select {
				case <-m.grew:
					conn.Notify(ctx, "notifications/tools/list_changed", nil)
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
		}
		return nil, jsonrpc.ErrMethodNotFound
	}})
	m.wg.Add(1)
	go func() { defer m.wg.Done(); <-conn.Done() }()
	return mcpclient.Connect(ctx, client, opts)
}

func TestRegistryStatelessServerListChanged(t *testing.T) {
	leakcheck.Check(t)
	m := &modernServer{listening: make(chan struct{}, 1), grew: make(chan struct{}, 1)}
	changed := make(chan string, 1) // after the registry marked the listing stale
	onChange := &mcpclient.Options{OnListChanged: func(kind string) {
		select { // the first change; a handler must not block the session
		case changed <- kind:
		default:
		}
	}}
	r, err := New(ctx10(t), &Config{Servers: []*ServerConfig{{Name: "modern", Type: "memory"}}}, &Options{Dial: m.dial, Session: onChange})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); m.wg.Wait() })
	s := r.Servers()[0]
	if s.State != StateConnected || s.ProtocolVersion != mcpclient.LatestVersion || s.Instructions != "stateless" || s.Tools != 2 {
		t.Fatalf("status: %+v", s)
	}
	<-m.listening // the session listens for changes because the registry wants them
	if _, err := r.Call(ctx10(t), "mcp__modern__grow", nil); err != nil {
		t.Fatal(err)
	}
	if kind := <-changed; kind != "tools" {
		t.Fatalf("the listen notification announced a change of %q", kind)
	}
	if tools, err := r.Tools(ctx10(t)); !hasTool(tools, "mcp__modern__beta") {
		t.Errorf("the refreshed listing lacks beta (%v)", err)
	}
	if n := m.lists.Load(); n != 2 {
		t.Errorf("%d tools/list requests, want 2 (the first listing and one refresh)", n)
	}
}
