package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// claudeHome makes a home directory for the test, with ~/.claude.json
// holding doc, and returns the file's path.
func claudeHome(t *testing.T, doc map[string]any) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	trustAll(home) // the project's servers are approved: the trust model's tests say otherwise
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, ".claude.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Without --config, mcpc reads Claude Code's files for the working
// directory, and a server in a narrower scope wins: local, then project,
// then user. The demo has 13 tools, and -extra-tools adds some.
func TestDefaultConfigIsClaudeCodes(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{
		"project": demoEntry(t),
		"shared":  demoEntry(t, "-extra-tools", "2"),
		"both":    demoEntry(t, "-extra-tools", "2"),
	})
	claudeHome(t, map[string]any{
		"numStartups": 7,
		"mcpServers": map[string]any{
			"user":   demoEntry(t, "-extra-tools", "1"),
			"shared": demoEntry(t, "-extra-tools", "1"),
			"both":   demoEntry(t, "-extra-tools", "1"),
		},
		"projects": map[string]any{
			dir: map[string]any{"mcpServers": map[string]any{
				"both":  demoEntry(t, "-extra-tools", "3"),
				"local": demoEntry(t, "-extra-tools", "4"),
			}},
			filepath.Join(dir, "elsewhere"): map[string]any{"mcpServers": map[string]any{"other": demoEntry(t)}},
		},
	})
	r := runIn(t, dir, "", "tools", "--json")
	r.want(t, exitOK)
	want := map[string]int{"user": 14, "project": 13, "shared": 15, "both": 16, "local": 17}
	if diff := cmp.Diff(want, toolServers(t, r)); diff != "" {
		t.Errorf("tools by server (-want +got):\n%s", diff)
	}
}

// Only ~/.claude.json, no .mcp.json: the user's and the project's servers
// there are enough.
func TestDefaultConfigNeedsNoMCPJSON(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	claudeHome(t, map[string]any{
		"projects": map[string]any{dir: map[string]any{"mcpServers": map[string]any{"local": demoEntry(t)}}},
	})
	r := runIn(t, dir, "", "tools", "--json")
	r.want(t, exitOK)
	if diff := cmp.Diff(map[string]int{"local": 13}, toolServers(t, r)); diff != "" {
		t.Errorf("tools by server (-want +got):\n%s", diff)
	}

	// A ~/.claude.json with no servers at all is no error of its own.
	claudeHome(t, map[string]any{"numStartups": 1, "projects": map[string]any{}})
	runIn(t, dir, "", "tools").want(t, exitConfig, "no MCP servers configured", "create .mcp.json")
}

// --config replaces Claude Code's files: ~/.claude.json is not read.
func TestConfigFlagSkipsClaudeCodesFiles(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	claudeHome(t, map[string]any{"mcpServers": map[string]any{"user": demoEntry(t)}})
	cfg := writeConfig(t, dir, "only.json", map[string]any{"only": demoEntry(t)})
	r := runIn(t, dir, "", "--config", cfg, "tools", "--json")
	r.want(t, exitOK)
	if diff := cmp.Diff(map[string]int{"only": 13}, toolServers(t, r)); diff != "" {
		t.Errorf("tools by server (-want +got):\n%s", diff)
	}
}

// A key mcpc does not use is a warning on stderr, once, and the run goes
// on; a broken ~/.claude.json is a usage error that names it.
func TestConfigWarningsAndErrorsNameTheFile(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	entry := demoEntry(t)
	entry["autoApprove"] = []string{"echo"}
	writeConfig(t, dir, ".mcp.json", map[string]any{"demo": entry})
	claudeHome(t, map[string]any{})
	r := runIn(t, dir, "", "tools", "--json")
	r.want(t, exitOK)
	warning := "mcpc: warning: config key not used by plainmcp: source=" + filepath.Join(dir, ".mcp.json") + " key=autoApprove servers=[demo]\n"
	if strings.Count(r.stderr, "mcpc: warning:") != 1 || !strings.Contains(r.stderr, warning) {
		t.Errorf("stderr %q, want the one warning %q", r.stderr, warning)
	}

	claude := claudeHome(t, map[string]any{"projects": map[string]any{dir: map[string]any{
		"mcpServers": map[string]any{"bad": map[string]any{"command": "npx -y some-server"}},
	}}})
	// The bad entry is left out, with a warning that names it; the
	// others work. Asked for by name, it is a usage error.
	r = runIn(t, dir, "", "tools")
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "mcp__demo__echo") {
		t.Errorf("stdout %q: the good server's tools are missing", r.stdout)
	}
	for _, want := range []string{claude + `: projects[`, `].mcpServers: server "bad": command: "npx -y some-server" is one string`, `use "args"`, "(left out)"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	runIn(t, dir, "", "--server", "bad", "tools").want(t, exitConfig,
		claude+`: projects[`, `].mcpServers: server "bad": command: "npx -y some-server" is one string`, `use "args"`)
}
