package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

// claudeJSON is a ~/.claude.json as Claude Code keeps it: app state beside
// the servers, stdio entries as claude mcp add writes them (a type and an
// empty env), the user scope at the top and a project's local scope under
// projects, keyed by the project's directory (%s). The memory server is
// given no MEMORY_FILE_PATH: it inherits the variable, as under Claude
// Code. The remote server has a url and no type. The project's fs server
// is approved, as Claude Code records it.
const claudeJSON = `{
  "numStartups": 42,
  "autoUpdates": false,
  "mcpServers": {
    "memory": {"type": "stdio", "command": "node", "args": ["${MEMORY_JS}"], "env": {}}
  },
  "projects": {
    %s: {
      "allowedTools": [],
      "hasTrustDialogAccepted": true,
      "enabledMcpjsonServers": ["fs"],
      "mcpServers": {
        "remote": {"url": "${EVERYTHING_URL}/mcp", "headers": {"X-Workspace": "${WORKSPACE_NAME:-integration}"}}
      }
    }
  }
}`

// claudeProjectConfig is the project's .mcp.json, checked in beside the
// code, with its paths in the variables of whoever runs it.
const claudeProjectConfig = `{
  "mcpServers": {
    "fs": {"command": "node", "args": ["${FILESYSTEM_JS}", "${FS_ROOT}"]}
  }
}`

// claudeCodeHome writes the workspace's files the way a Claude Code user
// has them: a home directory with ~/.claude.json, a project directory
// (the workspace's root) with .mcp.json, and every ${VAR} and the memory
// server's file in the environment, not in the config. It returns the
// project directory.
func claudeCodeHome(t *testing.T, w *workspace) string {
	t.Helper()
	home := filepath.Join(w.dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	for k, v := range w.env {
		t.Setenv(k, v)
	}
	t.Setenv("EVERYTHING_URL", serveEverything(t, "streamableHttp"))
	t.Setenv("MEMORY_FILE_PATH", filepath.Join(w.dir, "inherited.jsonl"))
	project := w.root
	key, _ := json.Marshal(project)
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(fmt.Sprintf(claudeJSON, key)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(claudeProjectConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	return project
}

// warnLog counts the warnings of a config load.
type warnLog struct{ n int }

func (l *warnLog) Enabled(_ context.Context, level slog.Level) bool { return level >= slog.LevelWarn }
func (l *warnLog) Handle(context.Context, slog.Record) error        { l.n++; return nil }
func (l *warnLog) WithAttrs([]slog.Attr) slog.Handler               { return l }
func (l *warnLog) WithGroup(string) slog.Handler                    { return l }

// TestIntegrationClaudeCodeConfig runs the servers of a Claude Code user's
// files: user and local scope in ~/.claude.json, the project's .mcp.json,
// as mcpjson.ClaudeCodeFiles finds them for the project directory.
func TestIntegrationClaudeCodeConfig(t *testing.T) {
	leakcheck.Check(t)
	w := newWorkspace(t)
	bin := buildMCPC(t) // before the home moves, which would move go's caches
	project := claudeCodeHome(t, w)
	files, err := mcpjson.ClaudeCodeFiles(project)
	if err != nil {
		t.Fatal(err)
	}
	warnings := &warnLog{}
	cfg, err := mcpjson.LoadConfigFiles(files, &mcpjson.ConfigOptions{Logger: slog.New(warnings)})
	if err != nil {
		t.Fatalf("LoadConfigFiles: %v", err)
	}
	if warnings.n != 1 {
		t.Errorf("%d warnings, want the one for the url without a type (no key plainmcp does not read)", warnings.n)
	}
	reg := startRegistry(t, cfg, &toolreg.Options{Strict: true})
	ctx := ctx30s(t)

	var got []string
	for _, st := range reg.Servers() {
		got = append(got, fmt.Sprintf("%s %s %s %s", st.Name, st.State, st.Transport, filepath.Base(st.Source)))
	}
	want := []string{
		"memory connected stdio .claude.json",
		"fs connected stdio .mcp.json",
		"remote connected http .claude.json", // a url and no type
	}
	if !slices.Equal(got, want) {
		t.Errorf("servers:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}

	// The memory server keeps its graph where the inherited variable says.
	entity := map[string]any{"name": "inherited", "entityType": "test", "observations": []string{"stored through the inherited MEMORY_FILE_PATH"}}
	call(t, reg, "mcp__memory__create_entities", map[string]any{"entities": []any{entity}})
	if data, err := os.ReadFile(os.Getenv("MEMORY_FILE_PATH")); err != nil || !strings.Contains(string(data), "inherited") {
		t.Errorf("the memory server's file, from the inherited variable: %q, %v", data, err)
	}
	if res := call(t, reg, "mcp__remote__echo", map[string]string{"message": "over http"}); !strings.Contains(res.Text(), "over http") {
		t.Errorf("remote echo: %q", res.Text())
	}
	if res := call(t, reg, "mcp__fs__list_allowed_directories", map[string]any{}); !strings.Contains(res.Text(), w.root) {
		t.Errorf("fs: %q", res.Text())
	}
	if _, err := reg.Tools(ctx); err != nil {
		t.Fatal(err)
	}

	// mcpc in the project directory, with no --config, finds the same.
	c := &cli{bin: bin, env: os.Environ(), dir: project}
	var servers []struct{ Name, State, Transport string }
	if decode(t, c.want(t, 0, "", "servers", "--json"), &servers) {
		got = got[:0]
		for _, s := range servers {
			got = append(got, s.Name+" "+s.State+" "+s.Transport)
		}
		if want := []string{"memory connected stdio", "fs connected stdio", "remote connected http"}; !slices.Equal(got, want) {
			t.Errorf("mcpc servers: %v, want %v", got, want)
		}
	}
	r := c.want(t, 0, "", "call", "mcp__memory__search_nodes", `{"query": "inherited"}`)
	if !strings.Contains(r.stdout, "stored through the inherited MEMORY_FILE_PATH") {
		t.Errorf("mcpc's memory server did not read the inherited file: %s", r.stdout)
	}
	// The one thing mcpc may say: that the url without a type is read as
	// http (Claude Code skips such an entry).
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if line != "" && !strings.Contains(line, "has a url and no type") {
			t.Errorf("mcpc's stderr: %s", line)
		}
	}
}
