package toolreg

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport"
)

// These tests use the registry as a host does: a listing before every
// model turn, hooks that call the registry, servers that come and go.

// A tool that a server adds is callable at once, even before the registry
// acted on (or heard) the list_changed that announced it: a call to a
// name the table lacks lists its server again, once, before it fails.
func TestNewToolCallableAtOnce(t *testing.T) {
	leakcheck.Check(t)
	{
		m := &inMemory{}
		r := newInMemory(t, m, &Options{Dial: deaf(m.dial)}, "a", "b")
		ctx := context.Background()
		if _, err := r.Tools(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Call(ctx, "mcp__a__change", nil); err != nil {
			t.Fatal(err)
		}
		before := m.Sent("a", "tools/list")
		res, err := r.Call(ctx, "mcp__a__dynamic", nil)
		if err != nil || res.IsError {
			t.Fatalf("the new tool: %+v, %v", res, err)
		}
		if n := m.Sent("a", "tools/list") - before; n != 1 {
			t.Errorf("tools/list sent %d times to a, want 1", n)
		}
		// Unknown names: their server is asked once per call at most,
		// concurrent calls share a listing, and no other server is asked.
		before, beforeB := m.Sent("a", "tools/list"), m.Sent("b", "tools/list")
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := r.Call(ctx, "mcp__a__nope", nil); !errors.Is(err, ErrUnknownTool) {
					t.Errorf("err = %v, want ErrUnknownTool", err)
				}
			}()
		}
		wg.Wait()
		if n := m.Sent("a", "tools/list") - before; n < 1 || n > 20 {
			t.Errorf("tools/list sent %d times for 20 calls", n)
		}
		if _, err := r.Call(ctx, "mcp__zzz__nope", nil); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("err = %v", err)
		}
		if n := m.Sent("b", "tools/list") - beforeB; n != 0 {
			t.Errorf("tools/list sent %d times to b, which no name pointed to", n)
		}
	}
}

// deaf wraps a Dial so that the client never hears notifications/tools/
// list_changed: as if it had not acted on one yet.
func deaf(dial func(context.Context, *ServerConfig, *mcpclient.Options) (*mcpclient.Session, error)) func(context.Context, *ServerConfig, *mcpclient.Options) (*mcpclient.Session, error) {
	return func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		o := *opts
		o.WrapStream = func(s jsonrpc.Stream) jsonrpc.Stream { return &dropping{Stream: s} }
		return dial(ctx, sc, &o)
	}
}

type dropping struct{ jsonrpc.Stream }

func (d *dropping) Read() ([]byte, error) {
	for {
		frame, err := d.Stream.Read()
		if err != nil || !bytes.Contains(frame, []byte(`"notifications/tools/list_changed"`)) {
			return frame, err
		}
	}
}

// A server whose capabilities offer no tools is asked for none: it is no
// failure, even for Strict, and it lists its prompts.
func TestPromptsOnlyServer(t *testing.T) {
	leakcheck.Check(t)
	{
		var asked []string
		var mu sync.Mutex
		dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
			client, server := transport.Pipe()
			conn := jsonrpc.NewConn(server, &jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
				mu.Lock()
				asked = append(asked, req.Method)
				mu.Unlock()
				switch req.Method {
				case "initialize":
					return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"prompts":{}},"serverInfo":{"name":"p","version":"1"}}`), nil
				case "prompts/list":
					return json.RawMessage(`{"prompts":[{"name":"greet"}]}`), nil
				}
				return nil, jsonrpc.ErrMethodNotFound
			}})
			t.Cleanup(func() { conn.Close() })
			return mcpclient.Connect(ctx, client, opts)
		}
		r, err := New(context.Background(), &Config{Servers: []*ServerConfig{{Name: "p", Type: "memory"}}}, &Options{Dial: dial, Strict: true})
		if err != nil {
			t.Fatalf("Strict New: %v", err)
		}
		defer r.Close()
		prompts, err := r.Prompts(context.Background())
		if err != nil || len(prompts) != 1 || prompts[0].Name != "mcp__p__greet" {
			t.Errorf("Prompts = %v, %v", prompts, err)
		}
		st := r.Servers()[0]
		if st.State != StateConnected || st.ListErr != nil || st.Tools != 0 {
			t.Errorf("status: %+v", st)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, m := range []string{"tools/list", "resources/list", "resources/templates/list"} {
			if slices.Contains(asked, m) {
				t.Errorf("asked %s of a server that does not offer it", m)
			}
		}
	}
}

// A project server the user has not approved, or has rejected, is never
// started, whatever asks for it; an approved one starts.
func TestUnapprovedProjectServersNeverStart(t *testing.T) {
	leakcheck.Check(t)
	var mu sync.Mutex
	var dialed []string
	m := &inMemory{}
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		mu.Lock()
		dialed = append(dialed, sc.Name)
		mu.Unlock()
		return m.dial(ctx, sc, opts)
	}
	cfg := &Config{}
	for name, approval := range map[string]string{"yes": mcpjson.Approved, "wait": mcpjson.Pending, "no": mcpjson.Rejected} {
		cfg.Servers = append(cfg.Servers, &ServerConfig{Name: name, Type: "memory", Scope: mcpjson.ScopeProject, Approval: approval})
	}
	r, err := New(ctx10(t), cfg, &Options{Dial: dial, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { r.Close(); m.WG.Wait() }()
	for _, name := range []string{"mcp__wait__echo", "mcp__no__echo"} {
		if _, err := r.Call(ctx10(t), name, nil); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := r.Session(ctx10(t), "wait"); !errors.Is(err, ErrUnapproved) {
		t.Errorf("a session of an unapproved server: %v, want ErrUnapproved", err)
	}
	if err := r.Reconnect(ctx10(t), "no"); !errors.Is(err, ErrUnapproved) {
		t.Errorf("a rejected server reconnected: %v, want ErrUnapproved", err)
	}
	r.Tools(ctx10(t))
	for _, st := range r.Servers() {
		want := StateUnapproved
		if st.Name == "yes" {
			want = StateConnected
		}
		if st.State != want || st.Scope != mcpjson.ScopeProject {
			t.Errorf("%s: %+v, want %s", st.Name, st, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(dialed, []string{"yes"}) {
		t.Errorf("dialed %v, want only the approved server", dialed)
	}
}

// The approver sees one form of arguments, JSON, whatever the caller
// passed, and the tool's annotations as its server listed them.
func TestCallCarriesJSONArgsAndAnnotations(t *testing.T) {
	leakcheck.Check(t)
	var mu sync.Mutex
	var seen []Call
	m := &inMemory{}
	r := newInMemory(t, m, &Options{Approve: func(_ context.Context, c Call) error {
		mu.Lock()
		seen = append(seen, c)
		mu.Unlock()
		return nil
	}}, "a")
	tools, err := r.Tools(ctx10(t))
	if err != nil {
		t.Fatal(err)
	}
	var echo *mcpclient.Tool
	for _, tl := range tools {
		if tl.Name == "mcp__a__echo" {
			echo = tl.Def
		}
	}
	for _, args := range []any{map[string]string{"text": "hi"}, json.RawMessage(`{"text":"hi"}`), struct {
		Text string `json:"text"`
	}{"hi"}} {
		if res, err := r.Call(ctx10(t), "mcp__a__echo", args); err != nil || res.Text() != "hi" {
			t.Fatalf("%T: %+v, %v", args, res, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, c := range seen {
		if string(c.Args) != `{"text":"hi"}` || c.Annotations == nil || c.Annotations != echo.Annotations {
			t.Errorf("the approver saw %s, %+v; want the JSON and %+v", c.Args, c.Annotations, echo.Annotations)
		}
	}
}
