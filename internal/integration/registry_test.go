package integration

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// registryConfig is a real .mcp.json naming three npm servers. Every path
// comes from a ${VAR} reference, so the file reads as a user would write it.
const registryConfig = `{
  "mcpServers": {
    "everything": {"command": "node", "args": ["${EVERYTHING_JS}", "stdio"]},
    "fs": {"type": "stdio", "command": "node", "args": ["${FILESYSTEM_JS}", "${FS_ROOT}"]},
    "memory": {
      "command": "node",
      "args": ["${MEMORY_JS}"],
      "env": {"MEMORY_FILE_PATH": "${MEMORY_DIR}/graph.jsonl"}
    }
  }
}`

// workspace is a temporary directory with what the servers work on: the
// filesystem server's allowed directory, seeded with files, a file outside
// it, and the memory server's graph file.
type workspace struct {
	dir     string            // holds the config files and the graph file
	root    string            // the filesystem server's allowed directory
	outside string            // a file the filesystem server must not read
	env     map[string]string // what the config's ${VAR} references name
}

// newWorkspace seeds a workspace, or skips the test when the environment
// does not name the servers' entry points.
func newWorkspace(t *testing.T) *workspace {
	t.Helper()
	env := map[string]string{}
	for name, envVar := range map[string]string{
		"EVERYTHING_JS": "PLAINMCP_EVERYTHING", "FILESYSTEM_JS": "PLAINMCP_FILESYSTEM", "MEMORY_JS": "PLAINMCP_MEMORY",
	} {
		entry := os.Getenv(envVar)
		if entry == "" {
			t.Skipf("%s not set: run `make integration`", envVar)
		}
		env[name] = entry
	}
	// The filesystem server resolves symbolic links in its allowed
	// directories; resolve ours too, so the paths it reports are ours.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &workspace{dir: dir, root: filepath.Join(dir, "root"), outside: filepath.Join(dir, "secret.txt"), env: env}
	w.env["FS_ROOT"], w.env["MEMORY_DIR"] = w.root, dir
	for name, content := range map[string]string{
		"root/notes.txt":   "plainmcp notes\nline two\n",
		"root/docs/one.md": "# One\n",
		"secret.txt":       "not for the filesystem server\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// writeConfig writes a config file into the workspace and returns its path.
func (w *workspace) writeConfig(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// load writes body as a config file and loads it, with the workspace's
// variables, and only those, for ${VAR}.
func (w *workspace) load(t *testing.T, name, body string) *toolreg.Config {
	t.Helper()
	cfg, err := toolreg.LoadConfig([]string{w.writeConfig(t, name, body)}, &toolreg.ConfigOptions{
		Env: func(name string) (string, bool) { v, ok := w.env[name]; return v, ok },
	})
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	return cfg
}

// startRegistry connects cfg's servers and closes them, within a bound,
// when the test ends.
func startRegistry(t *testing.T, cfg *toolreg.Config, opts *toolreg.Options) *toolreg.Registry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	reg, err := toolreg.New(ctx, cfg, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Logf("New returned in %v", time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() { closeWithin(t, reg, 20*time.Second) })
	return reg
}

func closeWithin(t *testing.T, reg *toolreg.Registry, bound time.Duration) {
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- reg.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
		t.Logf("Close took %v", time.Since(start).Round(time.Millisecond))
	case <-time.After(bound):
		t.Errorf("Close did not return within %v", bound)
	}
}

func TestIntegrationRegistry(t *testing.T) {
	leakcheck.Check(t)
	w := newWorkspace(t)
	cfg := w.load(t, ".mcp.json", registryConfig)
	if fs := cfg.Server("fs"); fs == nil || !slices.Equal(fs.Args, []string{w.env["FILESYSTEM_JS"], w.root}) {
		t.Fatalf("fs after expansion: %+v", fs)
	}
	reg := startRegistry(t, cfg, &toolreg.Options{
		Strict:  true,
		Session: &mcpclient.Options{ClientInfo: mcpclient.Implementation{Name: "plainmcp-integration", Version: "1"}},
	})
	ctx := ctx30s(t)

	t.Run("servers", func(t *testing.T) {
		var names []string
		for _, st := range reg.Servers() {
			names = append(names, st.Name)
			if st.State != toolreg.StateConnected || st.Err != nil || st.Transport != "stdio" ||
				st.ProtocolVersion != mcpclient.LatestHandshakeVersion || st.Source != filepath.Join(w.dir, ".mcp.json") {
				t.Errorf("%s: %+v", st.Name, st)
			}
		}
		if want := []string{"everything", "fs", "memory"}; !slices.Equal(names, want) {
			t.Errorf("servers %v, want %v in config order", names, want)
		}
		if _, err := reg.Tools(ctx); err != nil {
			t.Fatal(err)
		}
		for _, st := range reg.Servers() {
			if st.Tools == 0 {
				t.Errorf("%s: no tools counted after a listing", st.Name)
			}
		}
	})

	t.Run("tools", func(t *testing.T) {
		tools, err := reg.Tools(ctx)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, tool := range tools {
			if seen[tool.Name] {
				t.Errorf("%s listed twice", tool.Name)
			}
			seen[tool.Name] = true
			if tool.Name != toolreg.Qualify(tool.Server, tool.Tool.Name) || !json.Valid(tool.Tool.InputSchema) {
				t.Errorf("%s: server %q, tool %q", tool.Name, tool.Server, tool.Tool.Name)
			}
		}
		for _, want := range []string{
			"mcp__everything__echo", "mcp__everything__get-sum", "mcp__everything__get-tiny-image",
			"mcp__fs__read_text_file", "mcp__fs__write_file", "mcp__fs__list_directory", "mcp__fs__list_allowed_directories",
			"mcp__memory__create_entities", "mcp__memory__read_graph", "mcp__memory__search_nodes", "mcp__memory__delete_entities",
		} {
			if !seen[want] {
				t.Errorf("%s missing from %d tools", want, len(tools))
			}
		}
	})

	t.Run("filesystem", func(t *testing.T) {
		written := filepath.Join(w.root, "written.txt")
		res := call(t, reg, "mcp__fs__write_file", map[string]string{"path": written, "content": "written by plainmcp\n"})
		if data, err := os.ReadFile(written); err != nil || string(data) != "written by plainmcp\n" {
			t.Errorf("on disk after write_file (%s): %q %v", res.Text(), data, err)
		}
		res = call(t, reg, "mcp__fs__read_text_file", map[string]string{"path": written})
		if res.Text() != "written by plainmcp\n" || res.Server != "fs" || res.Tool != "read_text_file" {
			t.Errorf("read_text_file: %+v", res)
		}
		var structured struct{ Content string }
		if err := json.Unmarshal(res.Structured, &structured); err != nil || structured.Content != res.Text() {
			t.Errorf("structured content %s: %v", res.Structured, err)
		}
		res = call(t, reg, "mcp__fs__read_text_file", map[string]any{"path": filepath.Join(w.root, "notes.txt"), "head": 1})
		if res.Text() != "plainmcp notes" {
			t.Errorf("head 1: %q", res.Text())
		}
		res = call(t, reg, "mcp__fs__list_directory", map[string]string{"path": w.root})
		for _, want := range []string{"[FILE] notes.txt", "[FILE] written.txt", "[DIR] docs"} {
			if !strings.Contains(res.Text(), want) {
				t.Errorf("list_directory: %q lacks %q", res.Text(), want)
			}
		}
	})

	t.Run("memory", func(t *testing.T) {
		entity := map[string]any{"name": "plainmcp", "entityType": "project", "observations": []string{"an MCP client in Go"}}
		call(t, reg, "mcp__memory__create_entities", map[string]any{"entities": []any{entity}})
		for name, args := range map[string]any{"mcp__memory__read_graph": map[string]any{}, "mcp__memory__search_nodes": map[string]string{"query": "MCP client"}} {
			res := call(t, reg, name, args)
			var graph struct {
				Entities []struct {
					Name, EntityType string
					Observations     []string
				}
			}
			if err := json.Unmarshal(res.Structured, &graph); err != nil || len(graph.Entities) != 1 ||
				graph.Entities[0].Name != "plainmcp" || graph.Entities[0].Observations[0] != "an MCP client in Go" {
				t.Errorf("%s: %s %v", name, res.Structured, err)
			}
		}
		// MEMORY_FILE_PATH reached the server through the config's env.
		if data, err := os.ReadFile(filepath.Join(w.dir, "graph.jsonl")); err != nil || !strings.Contains(string(data), `"plainmcp"`) {
			t.Errorf("graph file: %q %v", data, err)
		}
		got, err := reg.ReadResource(ctx, "memory", "memory://knowledge-graph")
		if err != nil || len(got.Contents) != 1 || !strings.Contains(got.Contents[0].Text, "an MCP client in Go") {
			t.Errorf("memory://knowledge-graph: %+v %v", got, err)
		}
	})

	t.Run("everything", func(t *testing.T) {
		if res := call(t, reg, "mcp__everything__echo", map[string]string{"message": "routed"}); !strings.Contains(res.Text(), "routed") {
			t.Errorf("echo: %q", res.Text())
		}
		if res := call(t, reg, "mcp__everything__get-sum", map[string]int{"a": 40, "b": 2}); !strings.Contains(res.Text(), "42") {
			t.Errorf("get-sum: %q", res.Text())
		}
		res := call(t, reg, "mcp__everything__get-tiny-image", nil)
		i := slices.IndexFunc(res.Content, func(c mcpclient.Content) bool { return c.Type == "image" })
		if i < 0 {
			t.Fatalf("no image in %+v", res.Content)
		}
		summary := res.Summary(0)
		t.Logf("get-tiny-image summary:\n%s", summary)
		if !strings.Contains(summary, "[image image/png, ") || strings.Contains(summary, res.Content[i].Data[:40]) {
			t.Errorf("summary:\n%s", summary)
		}
		if short := res.Summary(60); len(short) > 60 {
			t.Errorf("Summary(60) is %d bytes", len(short))
		}
	})

	t.Run("tool errors", func(t *testing.T) {
		res := call(t, reg, "mcp__fs__read_text_file", map[string]string{"path": w.outside})
		if !res.IsError || res.Err == nil || res.Err.Server != "fs" || res.Err.Tool != "read_text_file" ||
			!strings.Contains(res.Err.Message, "outside allowed directories") {
			t.Errorf("reading outside the root: %+v %+v", res, res.Err)
		}
		t.Logf("tool error: %v", res.Err)
		if strings.Contains(res.Text(), "not for the filesystem server") {
			t.Error("the filesystem server read outside its root")
		}
		if !strings.HasSuffix(res.Summary(0), `[tool "read_text_file" of server "fs" reported an error]`) {
			t.Errorf("summary: %s", res.Summary(0))
		}
		if _, err := reg.Call(ctx, "mcp__fs__no_such_tool", nil); !errors.Is(err, toolreg.ErrUnknownTool) {
			t.Errorf("unknown tool: %v", err)
		}
		if _, err := reg.ReadResource(ctx, "nobody", "file:///x"); !errors.Is(err, toolreg.ErrUnknownServer) {
			t.Errorf("unknown server: %v", err)
		}
	})

	t.Run("parallel calls", func(t *testing.T) {
		var wg sync.WaitGroup
		for i := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name, args := []string{"mcp__everything__echo", "mcp__fs__list_allowed_directories", "mcp__memory__read_graph"}[i%3],
					[]map[string]any{{"message": "x"}, {}, {}}[i%3]
				if res, err := reg.Call(ctx, name, args); err != nil || res.IsError {
					t.Errorf("%s: %+v %v", name, res, err)
				}
			}()
		}
		wg.Wait()
	})

	t.Run("prompts", func(t *testing.T) {
		prompts, err := reg.Prompts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range prompts {
			names = append(names, p.Name)
			if p.Server != "everything" {
				t.Errorf("%s from %s: only server-everything offers prompts", p.Name, p.Server)
			}
		}
		if !slices.Contains(names, "mcp__everything__simple-prompt") || !slices.Contains(names, "mcp__everything__args-prompt") {
			t.Errorf("prompts: %v", names)
		}
		got, err := reg.GetPrompt(ctx, "mcp__everything__args-prompt", map[string]string{"city": "Lisbon"})
		if err != nil || len(got.Messages) == 0 || !strings.Contains(got.Messages[0].Content.Text, "Lisbon") {
			t.Errorf("args-prompt: %+v %v", got, err)
		}
		if _, err := reg.GetPrompt(ctx, "mcp__fs__simple-prompt", nil); !errors.Is(err, toolreg.ErrUnknownTool) {
			t.Errorf("a prompt fs does not offer: %v", err)
		}
	})

	t.Run("resources", func(t *testing.T) {
		resources, err := reg.Resources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		byServer := map[string][]string{}
		for _, r := range resources {
			byServer[r.Server] = append(byServer[r.Server], r.Resource.URI)
		}
		if len(byServer["everything"]) == 0 || !slices.Equal(byServer["memory"], []string{"memory://knowledge-graph"}) {
			t.Fatalf("resources by server: %v", byServer)
		}
		uri := byServer["everything"][0]
		got, err := reg.ReadResource(ctx, "everything", uri)
		if err != nil || len(got.Contents) == 0 || got.Contents[0].URI != uri {
			t.Errorf("read %s: %+v %v", uri, got, err)
		}
		// server-filesystem offers tools only: it lists no resources, and
		// asking it for one fails without harming its session.
		if len(byServer["fs"]) != 0 {
			t.Errorf("fs lists resources now: %v; read one through the registry", byServer["fs"])
		}
		if _, err := reg.ReadResource(ctx, "fs", "file://"+filepath.Join(w.root, "notes.txt")); err == nil {
			t.Error("fs served a resource it does not offer")
		}
		templates, err := reg.ResourceTemplates(ctx)
		if err != nil || len(templates) == 0 {
			t.Fatalf("templates: %v %v", templates, err)
		}
		for _, tmpl := range templates {
			if tmpl.Server != "everything" {
				t.Errorf("template %s from %s", tmpl.Template.URITemplate, tmpl.Server)
			}
		}
	})

	t.Run("session", func(t *testing.T) {
		for _, name := range []string{"everything", "fs", "memory"} {
			s, err := reg.Session(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Ping(ctx); err != nil {
				t.Errorf("%s: ping after everything else: %v", name, err)
			}
		}
	})
}

// call makes a tool call that must succeed as a call; the result may still
// report a tool error.
func call(t *testing.T, reg *toolreg.Registry, name string, args any) *toolreg.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := reg.Call(ctx, name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.Duration <= 0 {
		t.Errorf("%s: duration %v", name, res.Duration)
	}
	return res
}

// TestIntegrationRegistryFilters exposes only the tools a config's allow
// and deny patterns permit, and routes no call to the others.
func TestIntegrationRegistryFilters(t *testing.T) {
	leakcheck.Check(t)
	w := newWorkspace(t)
	cfg := w.load(t, "filtered.mcp.json", `{"mcpServers": {
	  "fs": {"command": "node", "args": ["${FILESYSTEM_JS}", "${FS_ROOT}"],
	         "allow": ["read_*", "list_directory"], "deny": ["read_media_file"]},
	  "memory": {"command": "node", "args": ["${MEMORY_JS}"], "env": {"MEMORY_FILE_PATH": "${MEMORY_DIR}/graph.jsonl"},
	             "deny": ["delete_*"]}
	}}`)
	reg := startRegistry(t, cfg, nil)
	ctx := ctx30s(t)
	tools, err := reg.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tool := range tools {
		got = append(got, tool.Name)
	}
	slices.Sort(got)
	want := []string{
		"mcp__fs__list_directory", "mcp__fs__read_file", "mcp__fs__read_multiple_files", "mcp__fs__read_text_file",
		"mcp__memory__add_observations", "mcp__memory__create_entities", "mcp__memory__create_relations",
		"mcp__memory__open_nodes", "mcp__memory__read_graph", "mcp__memory__search_nodes",
	}
	if !slices.Equal(got, want) {
		t.Errorf("exposed tools:\n got %v\nwant %v", got, want)
	}
	for _, st := range reg.Servers() {
		if n := map[string]int{"fs": 4, "memory": 6}[st.Name]; st.Tools != n {
			t.Errorf("%s: %d tools counted, want %d", st.Name, st.Tools, n)
		}
	}
	for _, name := range []string{"mcp__fs__write_file", "mcp__fs__read_media_file", "mcp__memory__delete_entities"} {
		if _, err := reg.Call(ctx, name, map[string]any{}); !errors.Is(err, toolreg.ErrUnknownTool) {
			t.Errorf("%s: %v, want ErrUnknownTool", name, err)
		}
	}
	if res := call(t, reg, "mcp__fs__read_text_file", map[string]string{"path": filepath.Join(w.root, "docs", "one.md")}); res.Text() != "# One\n" {
		t.Errorf("read_text_file: %+v", res)
	}
}

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
		OnConnect:    func(string) { mu.Lock(); connects++; mu.Unlock() },
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
	mu.Lock()
	defer mu.Unlock()
	if connects != 2 || disconnects != 1 {
		t.Errorf("OnConnect ran %d times and OnDisconnect %d, want 2 and 1", connects, disconnects)
	}
}
