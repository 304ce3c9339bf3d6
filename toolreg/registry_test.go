package toolreg

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// memConfig is a server entry that inMemory serves in this process: the
// registry's logic needs no process, and a real one costs a race-built
// start each (the few tests of what a process does use demoConfig).
func memConfig(name string) *ServerConfig {
	return &ServerConfig{Name: name, Type: "memory"}
}

// demoConfig is a stdio server entry running the demo server.
func demoConfig(name string) *ServerConfig {
	return &ServerConfig{Name: name, Type: "stdio", Command: os.Args[0],
		Env: secretMap(map[string]string{demoEnv: "1", "GORACE": "atexit_sleep_ms=0"})}
}

func ctx10(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newRegistry(t *testing.T, opts *Options, servers ...*ServerConfig) *Registry {
	t.Helper()
	r, err := New(ctx10(t), &Config{Servers: servers}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestRegistryConnectsListsAndRoutes(t *testing.T) {
	leakcheck.Check(t)
	broken := &ServerConfig{Name: "broken", Type: "stdio", Command: "/nonexistent/mcp-server"}
	off := memConfig("off")
	off.Disabled = true
	narrow := memConfig("narrow")
	narrow.Allow, narrow.Deny = []string{"e*", "add"}, []string{"elicit"}
	var mu sync.Mutex
	var connected []string
	m := &inMemory{}
	r := newInMemoryServers(t, m, &Options{OnConnect: func(s ServerStatus) { mu.Lock(); connected = append(connected, s.Name); mu.Unlock() }},
		memConfig("alpha"), broken, off, narrow)

	status := map[string]string{}
	for _, s := range r.Servers() {
		status[s.Name] = s.State
		if s.Name == "broken" && (s.Err == nil || !strings.Contains(s.Err.Error(), "broken")) {
			t.Errorf("broken server's error: %v", s.Err)
		}
	}
	if diff := cmp.Diff(map[string]string{"alpha": StateConnected, "broken": StateFailed, "off": StateDisabled, "narrow": StateConnected}, status); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	tools, err := r.Tools(ctx10(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"mcp__alpha__echo", "mcp__alpha__add", "mcp__narrow__echo", "mcp__narrow__add"} {
		if !contains(names, want) {
			t.Errorf("%s missing from %v", want, names)
		}
	}
	for _, not := range []string{"mcp__narrow__elicit", "mcp__narrow__slow"} {
		if contains(names, not) {
			t.Errorf("%s should be filtered out", not)
		}
	}
	res, err := r.Call(ctx10(t), "mcp__narrow__echo", map[string]string{"text": "routed"})
	if err != nil || res.Text() != "routed" || res.Server != "narrow" || res.Tool != "echo" || res.Duration <= 0 {
		t.Fatalf("Call: %+v %v", res, err)
	}
	if _, err := r.Call(ctx10(t), "mcp__narrow__slow", nil); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("filtered tool: %v", err)
	}
	if _, err := r.Call(ctx10(t), "mcp__nobody__echo", nil); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("unknown tool: %v", err)
	}
	mu.Lock()
	if len(connected) != 2 {
		t.Errorf("OnConnect for %v", connected)
	}
	mu.Unlock()
}

func TestRegistryStrict(t *testing.T) {
	leakcheck.Check(t)
	m := &inMemory{}
	_, err := New(ctx10(t), &Config{Servers: []*ServerConfig{memConfig("ok"),
		{Name: "broken", Type: "stdio", Command: "/nonexistent/mcp-server"}}}, &Options{Strict: true, Dial: m.dial})
	m.WG.Wait() // New closed the server that started
	if err == nil || !strings.Contains(err.Error(), `"broken"`) {
		t.Errorf("strict: %v", err)
	}
}

func TestRegistryToolErrorsApproverAndHooks(t *testing.T) {
	leakcheck.Check(t)
	var mu sync.Mutex
	var log []string
	r := newInMemory(t, &inMemory{}, &Options{
		Approve: func(ctx context.Context, c Call) error {
			switch c.Tool {
			case "add":
				return errors.New("not today")
			case "mixed":
				panic("approver bug")
			}
			return nil
		},
		OnToolCall: func(c Call, d time.Duration, err error) {
			mu.Lock()
			log = append(log, c.Server+"/"+c.Tool+":"+errString(err))
			mu.Unlock()
			panic("a hook bug must not break the registry")
		},
	}, "s")
	res, err := r.Call(ctx10(t), "mcp__s__fail", nil)
	if err != nil || !res.IsError || res.Err == nil || res.Err.Server != "s" || res.Err.Tool != "fail" || res.Err.Message == "" {
		t.Fatalf("fail tool: %+v %v", res, err)
	}
	if _, err := r.Call(ctx10(t), "mcp__s__add", map[string]int{"a": 1, "b": 2}); !errors.Is(err, ErrCallRefused) || !strings.Contains(err.Error(), "not today") {
		t.Errorf("refused: %v", err)
	}
	if _, err := r.Call(ctx10(t), "mcp__s__mixed", nil); !errors.Is(err, ErrCallRefused) {
		t.Errorf("a panicking approver must refuse: %v", err)
	}
	if res, err := r.Call(ctx10(t), "mcp__s__echo", map[string]string{"text": "still fine"}); err != nil || res.Text() != "still fine" {
		t.Errorf("after hook panics: %+v %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(log) != 2 || !strings.HasPrefix(log[0], "s/fail:tool") || log[1] != "s/echo:" {
		t.Errorf("OnToolCall: %q", log)
	}
}

func TestRegistryAddRemove(t *testing.T) {
	leakcheck.Check(t)
	r := newInMemory(t, &inMemory{}, nil)
	if err := r.Add(ctx10(t), &ServerConfig{Name: "bad", Type: "stdio", Command: "/nonexistent/x"}); err == nil {
		t.Fatal("adding a broken server succeeded")
	}
	if len(r.Servers()) != 0 {
		t.Error("a failed Add left a trace")
	}
	if err := r.Add(ctx10(t), memConfig("late")); err != nil {
		t.Fatal(err)
	}
	if res, err := r.Call(ctx10(t), "mcp__late__echo", map[string]string{"text": "hi"}); err != nil || res.Text() != "hi" {
		t.Fatalf("%+v %v", res, err)
	}
	if err := r.Remove("late"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Call(ctx10(t), "mcp__late__echo", nil); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("after Remove: %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasTool(tools []Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
