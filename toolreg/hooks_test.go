package toolreg

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

// The hooks tell the whole story: a server ready (with its counts), every
// end of a session and its reason, and every call with its size.
func TestHooksTellTheWholeStory(t *testing.T) {
	leakcheck.Check(t)
	var mu sync.Mutex
	var connected []ServerStatus
	ends := map[string][]error{}
	var calls []Call
	m := &inMemory{}
	r := newInMemory(t, m, &Options{
		Reserved:     []string{"mcp__a__echo"},
		OnConnect:    func(st ServerStatus) { mu.Lock(); connected = append(connected, st); mu.Unlock() },
		OnDisconnect: func(s string, err error) { mu.Lock(); ends[s] = append(ends[s], err); mu.Unlock() },
		OnToolCall:   func(c Call, d time.Duration, err error) { mu.Lock(); calls = append(calls, c); mu.Unlock() },
	}, "a", "b")

	mu.Lock()
	if len(connected) != 2 {
		t.Fatalf("OnConnect ran %d times", len(connected))
	}
	for _, st := range connected {
		if st.State != StateConnected || st.Tools == 0 || st.Prompts == 0 || st.Resources == 0 || st.Transport != "memory" || st.ProtocolVersion == "" {
			t.Errorf("OnConnect got %+v", st)
		}
	}
	mu.Unlock()

	if _, err := r.Call(ctx10(t), "mcp__b__echo", map[string]string{"text": "hello"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(calls) != 1 || calls[0].InBytes != len(`{"text":"hello"}`) || calls[0].OutBytes != len("hello") {
		t.Errorf("OnToolCall got %+v", calls)
	}
	mu.Unlock()

	// Status: connected since, counts, and the renamed tool with why.
	st := r.Servers()[0]
	if st.ConnectedAt.IsZero() || st.Prompts == 0 || len(st.Renamed) != 1 || !st.Renamed[0].Reserved || st.Renamed[0].Plain != "mcp__a__echo" {
		t.Errorf("status of a: %+v", st)
	}

	// Groups: one per server, titled, with its tools.
	groups, err := r.Groups(ctx10(t))
	if err != nil || len(groups) != 2 || groups[0].ID != "a" || groups[0].Title == "" || len(groups[1].Tools) != st.Tools {
		t.Errorf("Groups = %+v, %v", groups, err)
	}

	// Refresh lists again a server that never says its list changed.
	before := m.Sent("a", "tools/list")
	if err := r.Refresh(ctx10(t), "a"); err != nil || m.Sent("a", "tools/list") != before+1 {
		t.Errorf("Refresh: %v; tools/list sent %d times after %d", err, m.Sent("a", "tools/list"), before)
	}
	if err := r.Refresh(ctx10(t), "nope"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("Refresh of an unknown server: %v", err)
	}

	if err := r.Remove("a"); err != nil {
		t.Fatal(err)
	}
	r.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(ends["a"]) != 1 || !errors.Is(ends["a"][0], ErrRemoved) || len(ends["b"]) != 1 || !errors.Is(ends["b"][0], ErrRegistryClosed) {
		t.Errorf("OnDisconnect got %v", ends)
	}
}

// A server that fails to start is news for OnDisconnect too.
func TestOnDisconnectHearsOfAFailedStart(t *testing.T) {
	leakcheck.Check(t)
	var mu sync.Mutex
	var got []error
	r := newRegistry(t, &Options{OnDisconnect: func(s string, err error) { mu.Lock(); got = append(got, err); mu.Unlock() }},
		&ServerConfig{Name: "broken", Type: "stdio", Command: "/nonexistent/mcp-server"})
	defer r.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0] == nil {
		t.Errorf("OnDisconnect got %v", got)
	}
}

// A lazy registry starts a server when a call needs it, and no other;
// listing starts them all.
func TestLazyStartsOnlyWhatACallNeeds(t *testing.T) {
	leakcheck.Check(t)
	m := &inMemory{}
	r := newInMemory(t, m, &Options{Lazy: true}, "alpha", "beta", "gamma")
	for _, st := range r.Servers() {
		if st.State != StateIdle {
			t.Fatalf("before any use: %+v", st)
		}
	}
	for range 2 {
		if res, err := r.Call(ctx10(t), "mcp__beta__echo", map[string]string{"text": "hi"}); err != nil || res.Text() != "hi" {
			t.Fatalf("call: %v %v", res, err)
		}
	}
	states := map[string]string{}
	for _, st := range r.Servers() {
		states[st.Name] = st.State
	}
	if states["alpha"] != StateIdle || states["beta"] != StateConnected || states["gamma"] != StateIdle {
		t.Errorf("after a call to beta: %v", states)
	}
	if m.Sent("alpha", "initialize") != 0 || m.Sent("beta", "initialize") != 1 {
		t.Errorf("initialize sent to alpha %d, beta %d times", m.Sent("alpha", "initialize"), m.Sent("beta", "initialize"))
	}
	if _, err := r.Call(ctx10(t), "mcp__beta__nope", nil); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("an unknown tool: %v", err)
	}
	tools, err := r.Tools(ctx10(t))
	if err != nil || len(tools) == 0 {
		t.Fatal(err)
	}
	for _, st := range r.Servers() {
		if st.State != StateConnected {
			t.Errorf("after Tools: %+v", st)
		}
	}
}

// A server's "protocolVersion" pins the version its session speaks.
func TestConfigProtocolVersionPins(t *testing.T) {
	cfg, err := mcpjson.ParseConfig([]byte(`{"mcpServers":{"old":{"command":"x","protocolVersion":"2025-03-26"}}}`), "p/.mcp.json", nil)
	if err != nil || cfg.Servers[0].ProtocolVersion != "2025-03-26" {
		t.Fatalf("%+v %v", cfg, err)
	}
	if _, err := mcpjson.ParseConfig([]byte(`{"mcpServers":{"old":{"command":"x","protocolVersion":"1999-01-01"}}}`), "p/.mcp.json", nil); !errors.Is(err, mcpjson.ErrConfig) {
		t.Errorf("an unknown version: %v", err)
	}
	leakcheck.Check(t)
	m := &inMemory{}
	r, err := New(ctx10(t), &Config{Servers: []*ServerConfig{{Name: "old", Type: "memory", ProtocolVersion: "2025-03-26"}}}, &Options{Dial: m.dial})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { r.Close(); m.WG.Wait() }()
	if v := r.Servers()[0].ProtocolVersion; v != "2025-03-26" {
		t.Errorf("the session speaks %q", v)
	}
}
