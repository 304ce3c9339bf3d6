package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

// A project's .mcp.json servers start only once approved: without a
// terminal mcpc starts none it has no answer for, says how to, and starts
// them with --trust-project; at a terminal it asks once and keeps the
// answer where Claude Code does, so the next run does not ask.
func TestProjectServersNeedApproval(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{"demo": demoEntry(t)})
	home := t.TempDir() // no settings that approve every project
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")

	r := runIn(t, dir, "", "servers")
	r.want(t, exitRefused, `server "demo": the project's server is not approved yet`) // the one server selected is not started
	if !strings.Contains(r.stderr, `server "demo" of `+filepath.Join(dir, ".mcp.json")+` is not approved`) || !strings.Contains(r.stdout, "unapproved") {
		t.Errorf("stdout %q, stderr %q: want demo unapproved, with a warning", r.stdout, r.stderr)
	}
	runIn(t, dir, "", "--server", "demo", "tools").want(t, exitRefused, "not approved", "--trust-project")
	r = runIn(t, dir, "", "--trust-project", "call", "mcp__demo__echo", `{"text": "trusted"}`)
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "trusted") {
		t.Errorf("stdout %q", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude.json")); err == nil {
		t.Error("--trust-project kept an answer")
	}

	// At a terminal: asked once, the answer kept.
	var stdout, stderr strings.Builder
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader("y\n"), stdout: &stdout, stderr: &stderr, interactive: true}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if code := c.run(ctx, []string{"call", "mcp__demo__echo", `{"text": "approved"}`}); code != exitOK || !strings.Contains(stderr.String(), "Start it") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	abs, _ := filepath.Abs(dir)
	a, err := mcpjson.ReadApprovals(filepath.Join(home, ".claude.json"), "", abs)
	if err != nil || a.State("demo") != mcpjson.Approved {
		t.Fatalf("kept: %+v, %v", a, err)
	}
	r = runIn(t, dir, "", "call", "mcp__demo__echo", `{"text": "again"}`)
	r.want(t, exitOK)
	if strings.Contains(r.stderr, "not approved") {
		t.Errorf("asked again: %q", r.stderr)
	}
}

// The question that approves a project's server says which environment
// variables its config reads, by name, and the command it runs at each
// connection when it has a headersHelper, whole (a command of the
// repository's, run on this machine): a repository's .mcp.json can put
// "${GITHUB_TOKEN}" in a header of its own server's, and what the user
// approves then sends that token there. The values are never shown.
func TestProjectApprovalNamesTheVariablesAndTheHelper(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{"web": map[string]any{
		"type": "http", "url": "https://mcp.example/${PLAINMCP_TEST_PATH:-mcp}",
		"headers":       map[string]string{"X-Key": "Bearer ${PLAINMCP_TEST_TOKEN}"},
		"headersHelper": "node helper.js",
	}})
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("PLAINMCP_TEST_TOKEN", "hunter2-value")

	var stdout, stderr strings.Builder
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader("n\n"), stdout: &stdout, stderr: &stderr, interactive: true}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.run(ctx, []string{"servers"})
	got := stderr.String()
	if !strings.Contains(got, "Start it") {
		t.Fatalf("not asked: %q", got)
	}
	for _, want := range []string{"PLAINMCP_TEST_PATH, PLAINMCP_TEST_TOKEN", "runs at each connection, for headers (headersHelper): node helper.js"} {
		if !strings.Contains(got, want) {
			t.Errorf("the question does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got+stdout.String(), "hunter2") {
		t.Errorf("a value is shown:\n%s", got)
	}
}
