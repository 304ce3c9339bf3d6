package toolreg

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/transport"
)

// withEnv returns sc with more environment for its server.
func withEnv(sc *ServerConfig, kv ...string) *ServerConfig {
	for i := 0; i+1 < len(kv); i += 2 {
		sc.Env[kv[i]] = secret.New(kv[i+1])
	}
	return sc
}

func TestRegistryConnectsInParallelDespiteDeadAndSlowServers(t *testing.T) {
	leakcheck.Check(t)
	// dead is a real process, which proves its stderr is quoted; the
	// others are in-memory.
	dead := withEnv(demoConfig("dead"), crashEnv, "fatal: no API key configured")
	var slow []*ServerConfig
	for _, name := range []string{"slow1", "slow2", "slow3"} {
		// The timeout bounds a failure only.
		slow = append(slow, &ServerConfig{Name: name, Type: "memory", Timeout: 20 * time.Second})
	}
	// Each slow server's dial waits until all three have begun: one
	// after another, the first would wait out its startup timeout, and
	// fail. No clock decides it.
	var begun sync.WaitGroup
	begun.Add(len(slow))
	m := &inMemory{}
	t.Cleanup(m.WG.Wait) // after the registry's Close
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		if !strings.HasPrefix(sc.Name, "slow") {
			return m.dial(ctx, sc, opts)
		}
		begun.Done()
		waited := make(chan struct{})
		go func() { begun.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return m.dial(ctx, sc, opts)
	}
	r := newRegistry(t, &Options{Dial: dial}, append([]*ServerConfig{memConfig("ok"), dead}, slow...)...)
	got := map[string]ServerStatus{}
	for _, s := range r.Servers() {
		got[s.Name] = s
	}
	for name, transport := range map[string]string{"ok": "memory", "dead": "stdio", "slow1": "memory", "slow2": "memory", "slow3": "memory"} {
		if name == "dead" {
			if got[name].Transport != transport {
				t.Errorf("%s: transport %q, want %q", name, got[name].Transport, transport)
			}
			continue
		}
		if got[name].State != StateConnected || got[name].Transport != transport || got[name].ProtocolVersion == "" || got[name].Tools != demoToolCount {
			t.Errorf("%s: %+v", name, got[name])
		}
	}
	if s := got["dead"]; s.State != StateFailed || s.Err == nil || !strings.Contains(s.Err.Error(), "no API key configured") {
		t.Errorf("dead server: %+v (its stderr should be quoted)", s)
	}
	tools, err := r.Tools(ctx10(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mcp__ok__echo", "mcp__slow3__echo"} {
		if !hasTool(tools, name) {
			t.Errorf("%s missing", name)
		}
	}
	if hasTool(tools, "mcp__dead__echo") {
		t.Error("a server that never connected offers tools")
	}
}

// hungLister dials an in-process server that answers initialize and
// never answers tools/list.
func hungLister(t *testing.T) func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	return hungIn(t, "tools/list")
}

// hungIn dials an in-process server that never answers method (nor what
// would come after it), until the client gives up.
func hungIn(t *testing.T, method string) func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	return func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		conn := jsonrpc.NewConn(server, &jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			switch {
			case req.Method == method:
				<-ctx.Done()
				return nil, ctx.Err()
			case req.Method == "initialize":
				return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hung","version":"1"}}`), nil
			}
			return nil, jsonrpc.ErrMethodNotFound
		}})
		t.Cleanup(func() { conn.Close() })
		return mcpclient.Connect(ctx, client, opts)
	}
}
