package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// visitModel is a provider whose model calls mcp__visit__visit with
// {"required": true} (the demo server answers -32042 until its page was
// loaded), then says it is done.
func visitModel(t *testing.T) map[string]string {
	f := newFakeModel(t,
		`{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
			{"id":"v1","type":"function","function":{"name":"mcp__visit__visit","arguments":"{\"required\": true}"}}]},
			"finish_reason":"tool_calls"}]}`,
		`{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":"Done."},"finish_reason":"stop"}]}`)
	return map[string]string{"OPENAI_API_KEY": fakeKey, "OPENAI_BASE_URL": f.URL + "/v1"}
}

// ask: a call of the model's that the server answers -32042 shows its page
// to the person, who decides (the model never does); on yes the page opens
// and the call is made again, and the model reads the second answer; on no
// the model reads the failure and nothing opens.
func TestAskVisitsRequiredPages(t *testing.T) {
	for _, tc := range []struct {
		name, stdin string
		opened      int
		result      string // in the tool line on stderr
	}{
		{"yes", "y\n", 1, "the page of visit-1 was visited"},
		{"no", "n\n", 0, "error: server \"visit\": tool \"visit\": calling tools/call: jsonrpc error -32042"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := useBrowser(t, loadLater)
			dir := t.TempDir()
			visit := demoEntry(t, "-pages")
			visit["timeout"] = 20000
			writeConfig(t, dir, ".mcp.json", map[string]any{"visit": visit})
			env := visitModel(t)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var stdout, stderr bytes.Buffer
			c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(tc.stdin), stdout: &stdout, stderr: &stderr, interactive: true,
				getenv: func(k string) string { return env[k] }}
			code := c.run(ctx, []string{"--trust-project", "--allow", "mcp__visit__visit", "ask", "--model", "openai:gpt-test", "Visit, please."})
			r := result{code, stdout.String(), stderr.String()}
			r.want(t, exitOK, `Server "visit" asks you to open a page on 127.0.0.1:`)
			if b.count() != tc.opened {
				t.Errorf("opened %d pages, want %d", b.count(), tc.opened)
			}
			if !strings.Contains(r.stderr, "tool mcp__visit__visit") || !strings.Contains(r.stderr, tc.result) {
				t.Errorf("stderr %q, want the tool line with %q", r.stderr, tc.result)
			}
		})
	}
}
