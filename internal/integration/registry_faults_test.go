package integration

import (
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/toolreg"
)

// brokenConfig has a server that exits at once, one that is switched off
// and one that works.
const brokenConfig = `{"mcpServers": {
  "broken": {"command": "node", "args": ["${FS_ROOT}/no-such-server.js"]},
  "off": {"disabled": true},
  "fs": {"command": "node", "args": ["${FILESYSTEM_JS}", "${FS_ROOT}"]}
}}`

// TestIntegrationRegistryFailures keeps the servers that came up when
// another fails, unless Strict, which fails New and leaves nothing running.
func TestIntegrationRegistryFailures(t *testing.T) {
	w := newWorkspace(t)
	t.Run("lenient", func(t *testing.T) {
		leakcheck.Check(t)
		reg := startRegistry(t, w.load(t, "broken.mcp.json", brokenConfig), nil)
		states := map[string]string{}
		for _, st := range reg.Servers() {
			states[st.Name] = st.State
			if st.Name == "broken" {
				t.Logf("broken: %v", st.Err)
			}
			if st.Name == "broken" && (st.Err == nil || !strings.Contains(st.Err.Error(), "broken")) {
				t.Errorf("broken: error %v", st.Err)
			}
		}
		want := map[string]string{"broken": toolreg.StateFailed, "off": toolreg.StateDisabled, "fs": toolreg.StateConnected}
		if !maps.Equal(states, want) {
			t.Errorf("states %v, want %v", states, want)
		}
		tools, err := reg.Tools(ctx30s(t))
		if err != nil || len(tools) == 0 {
			t.Fatalf("%d tools, %v", len(tools), err)
		}
		for _, tool := range tools {
			if tool.Server != "fs" {
				t.Errorf("%s from %s", tool.Name, tool.Server)
			}
		}
	})
	t.Run("strict", func(t *testing.T) {
		leakcheck.Check(t)
		ctx := ctx30s(t)
		reg, err := toolreg.New(ctx, w.load(t, "broken.mcp.json", brokenConfig), &toolreg.Options{Strict: true})
		t.Logf("strict New: %v", err)
		if err == nil || reg != nil || !strings.Contains(err.Error(), `"broken"`) {
			t.Errorf("New: %v, %v", reg, err)
		}
	})
}

// TestIntegrationRegistryReconnect kills a server under the registry: the
// registry reports it, refuses calls until its backoff has passed, then
// starts it again on the next call. server-memory keeps its graph in a
// file, so what was stored before the crash is there after it.
func TestIntegrationRegistryReconnect(t *testing.T) {
	leakcheck.Check(t)
	w := newWorkspace(t)
	// A shell records the server's pid, then becomes the server. $$ and
	// $PIDFILE are left for the shell: only ${…} is expanded.
	cfg := w.load(t, "crash.mcp.json", `{"mcpServers": {"memory": {
	  "command": "sh", "args": ["-c", "echo $$ > \"$PIDFILE\" && exec node \"$MEMORY_JS\""],
	  "env": {"PIDFILE": "${MEMORY_DIR}/memory.pid", "MEMORY_JS": "${MEMORY_JS}", "MEMORY_FILE_PATH": "${MEMORY_DIR}/graph.jsonl"}
	}}}`)
	var mu sync.Mutex
	var connects, disconnects int
	reg := startRegistry(t, cfg, &toolreg.Options{
		OnConnect:    func(toolreg.ServerStatus) { mu.Lock(); connects++; mu.Unlock() },
		OnDisconnect: func(string, error) { mu.Lock(); disconnects++; mu.Unlock() },
	})
	entity := map[string]any{"name": "survivor", "entityType": "test", "observations": []string{"stored before the crash"}}
	call(t, reg, "mcp__memory__create_entities", map[string]any{"entities": []any{entity}})

	pidText, err := os.ReadFile(filepath.Join(w.dir, "memory.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err != nil {
		t.Fatalf("pid file %q: %v", pidText, err)
	}
	proc, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if err := proc.Kill(); err != nil {
		t.Fatal(err)
	}
	for reg.Servers()[0].State != toolreg.StateReconnecting {
		if time.Since(killed) > 10*time.Second {
			t.Fatalf("after the kill: %+v", reg.Servers()[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("reported %v after the kill: %v", time.Since(killed).Round(time.Millisecond), reg.Servers()[0].Err)

	ctx := ctx30s(t)
	for {
		res, err := reg.Call(ctx, "mcp__memory__search_nodes", map[string]string{"query": "survivor"})
		if err != nil {
			if time.Since(killed) > 15*time.Second {
				t.Fatalf("no reconnection: %v", err)
			}
			time.Sleep(200 * time.Millisecond)
			continue
		}
		if !strings.Contains(res.Text(), "stored before the crash") {
			t.Errorf("after the restart: %s", res.Text())
		}
		break
	}
	t.Logf("answered again %v after the kill", time.Since(killed).Round(time.Millisecond))
	if st := reg.Servers()[0]; st.State != toolreg.StateConnected || st.Err != nil {
		t.Errorf("after reconnecting: %+v", st)
	}
	// Hooks run in order on a queue of their own, after the state they
	// report: the reconnect's OnConnect may follow the call's answer.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		c, d := connects, disconnects
		mu.Unlock()
		if c == 2 && d == 1 {
			break
		}
		if c > 2 || d > 1 || time.Now().After(deadline) {
			t.Errorf("OnConnect ran %d times and OnDisconnect %d, want 2 and 1", c, d)
			break
		}
	}
}
