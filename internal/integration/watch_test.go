package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// everythingConfig writes a .mcp.json naming the server-everything entry
// in envVar as "everything", its start bounded on its own (the tests give
// --timeout other jobs), and returns its path.
func everythingConfig(t *testing.T, envVar string) string {
	t.Helper()
	entry := os.Getenv(envVar)
	if entry == "" {
		t.Skipf("%s not set: run `make integration`", envVar)
	}
	config := filepath.Join(t.TempDir(), ".mcp.json")
	body, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": "node", "args": []string{entry, "stdio"}, "timeout": 30000},
	}})
	if err := os.WriteFile(config, body, 0o600); err != nil {
		t.Fatal(err)
	}
	return config
}

// mcpc watch over server-everything 2025.9.25, which sends
// notifications/resources/updated for every subscribed resource every ten
// seconds: the update is printed as a JSON line, with the resource read
// again (--read). Its subscribe asks the client for a sampling first,
// which --sampling echo answers.
func TestIntegrationMCPCWatch(t *testing.T) {
	config := everythingConfig(t, "PLAINMCP_EVERYTHING_LEGACY")
	c := &cli{bin: buildMCPC(t), env: os.Environ()}
	r := c.want(t, 0, "", "--config", config, "--sampling", "echo", "--read", "--json", "--count", "1", "--timeout", "40s",
		"watch", "everything:test://static/resource/1")
	var ev struct {
		Server, Kind, URI string
		Contents          []struct{ Text string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &ev); err != nil || ev.Server != "everything" || ev.Kind != "resource_updated" ||
		ev.URI != "test://static/resource/1" || len(ev.Contents) != 1 || !strings.HasPrefix(ev.Contents[0].Text, "Resource 1:") {
		t.Errorf("watch printed %q (%v)", r.stdout, err)
	}
}

// URL-mode elicitation against server-everything's trigger-url-elicitation,
// through mcpc with --open-urls and a stand-in xdg-open that writes down
// what it is given: the request path (elicitation/create) and the error
// path (-32042, whose prerequisite page is opened before the call is made
// again; the server sends no completion, so mcpc's wait ends at
// --timeout).
func TestIntegrationMCPCURLElicitation(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the stand-in opener is xdg-open's")
	}
	config := everythingConfig(t, "PLAINMCP_EVERYTHING")
	bin := t.TempDir()
	opened := filepath.Join(bin, "opened")
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> " + opened + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	c := &cli{bin: buildMCPC(t), env: append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))}
	r := c.want(t, 0, "", "--config", config, "--open-urls", "call", "mcp__everything__trigger-url-elicitation", `{"url": "https://example.com/flow"}`)
	if !strings.Contains(r.stdout, "User completed the URL elicitation flow") || !strings.Contains(r.stderr, `Server "everything" asks you to open a page on example.com`) {
		t.Errorf("request path: stdout %q stderr %q", r.stdout, r.stderr)
	}
	r = c.want(t, 0, "", "--config", config, "--open-urls", "--timeout", "2s", "call", "mcp__everything__trigger-url-elicitation", `{"url": "https://example.com/after", "errorPath": true}`)
	if !strings.Contains(r.stdout, "User completed the URL elicitation flow") || !strings.Contains(r.stderr, "making the call again") {
		t.Errorf("error path: stdout %q stderr %q", r.stdout, r.stderr)
	}
	got, _ := os.ReadFile(opened)
	if want := "https://example.com/flow\nhttps://modelcontextprotocol.io\nhttps://example.com/after\n"; string(got) != want {
		t.Errorf("opened %q, want %q", got, want)
	}
	// Without --open-urls and with no terminal, the page is declined.
	r = c.want(t, 0, "", "--config", config, "--elicitation", "defaults", "call", "mcp__everything__trigger-url-elicitation", `{"url": "https://example.com/no"}`)
	if !strings.Contains(r.stdout, "User declined") || !strings.Contains(r.stderr, "no terminal to ask at") {
		t.Errorf("no terminal: stdout %q stderr %q", r.stdout, r.stderr)
	}
}
