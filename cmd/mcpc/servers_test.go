package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// toolServers maps each server to its number of tools in `tools --json`.
func toolServers(t *testing.T, r result) map[string]int {
	t.Helper()
	var tools []struct{ Server string }
	r.decode(t, &tools)
	got := map[string]int{}
	for _, tool := range tools {
		got[tool.Server]++
	}
	return got
}

func TestDefaultConfigIsTheDirectorysMCPJSON(t *testing.T) {
	leakcheck.Check(t)
	r := runIn(t, demoDir(t), "", "tools", "--json")
	r.want(t, exitOK)
	if diff := cmp.Diff(map[string]int{"demo": 13, "pages": 18}, toolServers(t, r)); diff != "" {
		t.Errorf("tools by server (-want +got):\n%s", diff)
	}
}

func TestNoServersIsAConfigError(t *testing.T) {
	leakcheck.Check(t)
	empty := t.TempDir()
	runIn(t, empty, "", "tools").want(t, exitConfig, "create .mcp.json", "--config", "--stdio")
	writeConfig(t, empty, ".mcp.json", map[string]any{})
	runIn(t, empty, "", "tools").want(t, exitConfig, "no MCP servers configured")
	runIn(t, empty, "", "--config", "missing.json", "tools").want(t, exitConfig, "missing.json")
	bad := writeConfig(t, empty, "bad.json", map[string]any{"x": map[string]any{"type": "carrier-pigeon"}})
	runIn(t, empty, "", "--config", bad, "tools").want(t, exitConfig, `server "x"`)
}

func TestConfigFilesMergeInOrderAndReplaceTheDefault(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{"local": demoEntry(t)}) // not read: --config is given
	first := writeConfig(t, dir, "first.json", map[string]any{
		"demo":  demoEntry(t),
		"pages": demoEntry(t, "-extra-tools", "5"),
	})
	second := writeConfig(t, dir, "second.json", map[string]any{"pages": demoEntry(t, "-extra-tools", "2")})
	r := runIn(t, dir, "", "--config", first, "--config", second, "--json", "tools")
	r.want(t, exitOK)
	if diff := cmp.Diff(map[string]int{"demo": 13, "pages": 15}, toolServers(t, r)); diff != "" {
		t.Errorf("tools by server (-want +got):\n%s", diff)
	}
}

func TestServerFlagSelectsOneServer(t *testing.T) {
	leakcheck.Check(t)
	dir := demoDir(t)
	r := runIn(t, dir, "", "--server", "pages", "--json", "tools")
	r.want(t, exitOK)
	if diff := cmp.Diff(map[string]int{"pages": 18}, toolServers(t, r)); diff != "" {
		t.Errorf("tools by server (-want +got):\n%s", diff)
	}
	runIn(t, dir, "", "--server", "nope", "tools").want(t, exitConfig, `"nope"`, "demo, pages")
}

// servers prints every server's state, and exits 1 when one that was
// selected failed: a script learns of it without parsing the table.
func TestServersReportsEveryStateAndFailsForAFailedOne(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "servers.json", map[string]any{
		"demo":   demoEntry(t),
		"broken": map[string]any{"command": dir + "/no-such-server"},
		"off":    map[string]any{"disabled": true},
	})
	r := runIn(t, dir, "", "--config", cfg, "servers", "--json")
	r.want(t, exitConnect, `server "broken"`)
	var got []serverJSON
	r.decode(t, &got)
	byName := map[string]serverJSON{}
	for _, s := range got {
		byName[s.Name] = s
	}
	if len(got) != 3 || len(byName) != 3 {
		t.Fatalf("got %d servers, want 3: %s", len(got), r.stdout)
	}
	if s := byName["demo"]; s.State != "connected" || s.Transport != "stdio" || s.Tools != 13 ||
		s.ProtocolVersion == "" || s.Title == "" || s.Error != "" {
		t.Errorf("demo: %+v", s)
	}
	if s := byName["broken"]; s.State != "failed" || !strings.Contains(s.Error, "no-such-server") {
		t.Errorf("broken: %+v", s)
	}
	if s := byName["off"]; s.State != "disabled" {
		t.Errorf("off: %+v", s)
	}
	table := runIn(t, dir, "", "--config", cfg, "servers")
	table.want(t, exitConnect)
	for _, want := range []string{"NAME", "demo", "connected", "broken", "failed", "no-such-server", "off", "disabled"} {
		if !strings.Contains(table.stdout, want) {
			t.Errorf("the table lacks %q:\n%s", want, table.stdout)
		}
	}
	// A listing with a server missing prints the rest and fails.
	tools := runIn(t, dir, "", "--config", cfg, "tools")
	tools.want(t, exitConnect, `server "broken"`)
	if !strings.Contains(tools.stdout, "mcp__demo__echo") {
		t.Errorf("the working server's tools are missing:\n%s", tools.stdout)
	}
}

func TestAdHocStdioServer(t *testing.T) {
	leakcheck.Check(t)
	stdio := []string{"--stdio", "'" + testBinary(t) + "' -extra-tools 1", "--env", demoEnv + "=1", "--env", "GORACE=atexit_sleep_ms=0"}
	dir := demoDir(t) // its .mcp.json is not read
	r := runIn(t, dir, "", append(stdio, "call", "echo", `{"text":"ad hoc"}`)...)
	r.want(t, exitOK)
	if r.stdout != "ad hoc\n" {
		t.Errorf("stdout = %q, want %q", r.stdout, "ad hoc\n")
	}
	r = runIn(t, dir, "", append(stdio, "--name", "solo", "--json", "tools")...)
	r.want(t, exitOK)
	if diff := cmp.Diff(map[string]int{"solo": 14}, toolServers(t, r)); diff != "" {
		t.Errorf("tools by server (-want +got):\n%s", diff)
	}
}

func TestUsageErrors(t *testing.T) {
	leakcheck.Check(t)
	dir := demoDir(t)
	t.Setenv("MCPC_TEST_EMPTY", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "no command given"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"call"}, "usage: mcpc call"},
		{[]string{"tools", "extra"}, "usage: mcpc tools"},
		{[]string{"--no-such-flag", "tools"}, "no-such-flag"},
		{[]string{"--stdio", "x", "--url", "http://localhost/", "tools"}, "not both"},
		{[]string{"--stdio", "x", "--config", "a.json", "tools"}, "not both"},
		{[]string{"--env", "A=1", "tools"}, "--env"},
		{[]string{"--stdio", "'unterminated", "tools"}, "unterminated"},
		{[]string{"--stdio", "x", "--env", "NOEQUALS", "tools"}, "--env"},
		{[]string{"--url", "http://localhost/", "--header", "no colon secret", "tools"}, "--header"},
		{[]string{"--url", "http://localhost/", "--bearer-env", "MCPC_TEST_EMPTY", "tools"}, "is empty"},
		{[]string{"--sampling", "real", "tools"}, "--sampling"},
		{[]string{"--elicitation", "maybe", "tools"}, "--elicitation"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runIn(t, dir, "", tc.args...)
			r.want(t, exitUsage, tc.want)
			if strings.Contains(r.stderr, "secret") {
				t.Errorf("stderr repeats a header: %q", r.stderr)
			}
		})
	}
}

func TestHelpPrintsUsage(t *testing.T) {
	r := runIn(t, t.TempDir(), "", "-h")
	r.want(t, exitOK)
	for _, want := range []string{"Commands:", "servers", "--config", "--server", "--trace"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}

func TestErrorsDoNotShowSecrets(t *testing.T) {
	leakcheck.Check(t)
	t.Setenv("MCPC_TEST_TOKEN", "token-sekrit")
	r := runIn(t, t.TempDir(), "", "--url", "http://127.0.0.1:1/mcp", "--header", "X-Api-Key: header-sekrit",
		"--bearer-env", "MCPC_TEST_TOKEN", "--timeout", "5s", "ping")
	r.want(t, exitConnect, `server "server"`)
	if strings.Contains(r.stderr+r.stdout, "sekrit") {
		t.Errorf("a secret is shown: %q", r.stderr)
	}
}

func TestParseFlagsAnywhere(t *testing.T) {
	for _, tc := range []struct {
		args []string
		rest []string
		json bool
	}{
		{[]string{"--json", "tools"}, []string{"tools"}, true},
		{[]string{"tools", "--json"}, []string{"tools"}, true},
		{[]string{"call", "x", "--json", "-"}, []string{"call", "x", "-"}, true},
		{[]string{"call", "--", "--json"}, []string{"call", "--json"}, false},
	} {
		cfg, rest, err := parseFlags(tc.args, false)
		if err != nil {
			t.Errorf("parseFlags(%q): %v", tc.args, err)
			continue
		}
		if diff := cmp.Diff(tc.rest, rest); diff != "" || cfg.json != tc.json {
			t.Errorf("parseFlags(%q): json %v, want %v; rest (-want +got):\n%s", tc.args, cfg.json, tc.json, diff)
		}
	}
}

func TestASelectedDisabledServerFails(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "off.json", map[string]any{"demo": demoEntry(t), "off": map[string]any{"disabled": true}})
	runIn(t, dir, "", "--config", cfg, "tools").want(t, exitOK)
	runIn(t, dir, "", "--config", cfg, "--server", "off", "tools").want(t, exitConfig, `server "off" is disabled`)
	runIn(t, dir, "", "--config", cfg, "--server", "off", "call", "echo").want(t, exitConfig, `server "off" is disabled`)
	runIn(t, dir, "", "--config", cfg, "--server", "off", "ping").want(t, exitConfig, `server "off" is disabled`)
}

// TestTimeoutBoundsAHungStart: --timeout bounds a server's start as well
// as each request, and the failure names the knob.
func TestTimeoutBoundsAHungStart(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{"hung": demoEntry(t, "-hang")})
	r := runIn(t, dir, "", "--timeout", "300ms", "tools")
	r.want(t, exitConnect, `server "hung" did not answer within 300ms`, "--timeout")
}
