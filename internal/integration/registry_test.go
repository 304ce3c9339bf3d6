package integration

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/mcpversion"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

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
				st.ProtocolVersion != mcpversion.V20251125 || st.Source != filepath.Join(w.dir, ".mcp.json") {
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
			if tool.Name != toolreg.Qualify(tool.Server, tool.Def.Name) || !json.Valid(tool.Def.InputSchema) {
				t.Errorf("%s: server %q, tool %q", tool.Name, tool.Server, tool.Def.Name)
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
