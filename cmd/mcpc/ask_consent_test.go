package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// bodyModel is a provider that answers with bodies in order (the last
// repeats) and keeps the request bodies it got.
type bodyModel struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
	got    []string
	auth   []string
}

func newBodyModel(t *testing.T, bodies ...string) *bodyModel {
	f := &bodyModel{bodies: bodies}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		n := len(f.got)
		f.got, f.auth = append(f.got, string(b)), append(f.auth, r.Header.Get("Authorization"))
		body := f.bodies[min(n, len(f.bodies)-1)]
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	t.Cleanup(f.Close)
	return f
}

// toolMessages returns the "tool" messages of a Chat Completions request,
// by call id.
func toolMessages(t *testing.T, body []byte) map[string]string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

func (f *bodyModel) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

// changeModel calls mcp__demo__change, then answers "done".
func changeModel(t *testing.T) *bodyModel {
	return newBodyModel(t,
		`{"model":"m","choices":[{"message":{"tool_calls":[{"id":"c1","type":"function","function":{"name":"mcp__demo__change","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"model":"m","choices":[{"message":{"content":"done"},"finish_reason":"stop"}]}`)
}

// runAsk runs mcpc as a person at a terminal would (interactive) or as a
// script, with the provider f and stdin.
func runAsk(t *testing.T, dir string, f *bodyModel, interactive bool, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"OPENAI_API_KEY": fakeKey, "OPENAI_BASE_URL": f.URL}
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, interactive: interactive,
		getenv: func(k string) string { return env[k] }}
	code := c.run(ctx, append([]string{"--server", "demo", "ask", "--model", "openai:m"}, args...))
	return result{code, stdout.String(), stderr.String()}
}

// A call runs only with consent:
// --allow or --yes, or a person who says yes; without a terminal it is
// refused, and the model reads why.
func TestAskConsent(t *testing.T) {
	t.Parallel() // beside the era cache test, which waits out a probe
	dir := demoDir(t)
	for _, tc := range []struct {
		name        string
		interactive bool
		stdin       string
		args        []string
		ran         bool
		stderr      []string
	}{
		{name: "no terminal", stderr: []string{"consent: refused, no terminal to ask (--allow mcp__demo__change or --yes would run it)"}},
		{name: "--allow", args: []string{"--allow", "mcp__demo__ch*"}, ran: true,
			stderr: []string{`consent: approved by --allow mcp__demo__ch*: mcp__demo__change (tool "change" of server "demo") (no arguments)`}},
		{name: "--allow another tool", args: []string{"--allow", "mcp__demo__log"}, stderr: []string{"consent: refused"}},
		{name: "--yes", args: []string{"--yes"}, ran: true, stderr: []string{"consent: approved by --yes: mcp__demo__change"}},
		{name: "the person says yes", interactive: true, stdin: "y\n", ran: true,
			stderr: []string{`The model wants to call mcp__demo__change: tool "change" of server "demo".`, "Run it? [y/N]"}},
		{name: "the person says no", interactive: true, stdin: "\n", stderr: []string{"Run it? [y/N]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := changeModel(t)
			r := runAsk(t, dir, f, tc.interactive, tc.stdin, append(tc.args, "Change things")...)
			r.want(t, exitOK)
			for _, s := range tc.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr %q lacks %q", r.stderr, s)
				}
			}
			reqs := f.requests()
			if len(reqs) != 2 {
				t.Fatalf("got %d model requests, want 2", len(reqs))
			}
			results := toolMessages(t, []byte(reqs[1]))
			refused := strings.HasPrefix(results["c1"], "[the tool reported an error]\nnot run: the call was not approved")
			failed := strings.HasPrefix(results["c1"], "[the tool reported an error]")
			if refused == tc.ran || tc.ran && failed {
				t.Errorf("the model read %q; want the tool run: %v", results["c1"], tc.ran)
			}
		})
	}
}

// Text a server or the model controls reaches the terminal without
// control characters: the model's streamed text, the tool line, the
// consent prompt.
func TestAskOutputHasNoControlSequences(t *testing.T) {
	if got := safe.Strip("a\x1b[2Jb\tc\nd\x07e\u202eright\u009b31m"); got != "a[2Jb\tc\nderight31m" {
		t.Errorf("printable: got %q", got)
	}
	use := mcpclient.Content{Type: "tool_use", Name: "mcp__s__t\x1b[1m", Input: json.RawMessage(`{"k":"\u001b]0;title\u0007"}`)}
	res := mcpclient.Content{Type: "tool_result", Content: []mcpclient.Content{{Type: "text", Text: "ok\x1b[31m red\r\nline"}}}
	if line := toolLine(use, res); strings.ContainsAny(line, "\x1b\x07\r\n") {
		t.Errorf("toolLine: got %q", line)
	}
	call := toolreg.Call{Name: "mcp__s__t", Server: "s\x1b[2J", Tool: "t\x1b]8;;http://x\x07",
		Args: json.RawMessage(`{"a\u001b[1m":"\u001b[31mred","n":1}`)}
	var out bytes.Buffer
	a := newAsker(strings.NewReader("n\n"), &out)
	if err := a.consent(context.Background(), call); err == nil {
		t.Error("n: got consent")
	}
	var script bytes.Buffer
	(&consent{out: &script}).approve(context.Background(), call)
	for _, s := range []string{out.String(), script.String()} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("the prompt carries control characters: %q", s)
		}
	}
}

// --continue FILE: the second question continues the first conversation,
// which is saved to FILE (mode 0600) after each.
func TestAskContinue(t *testing.T) {
	dir := demoDir(t)
	file := filepath.Join(t.TempDir(), "chat.json")
	first := newBodyModel(t, `{"model":"m","choices":[{"message":{"content":"Hello, Ada."},"finish_reason":"stop"}]}`)
	runAsk(t, dir, first, false, "", "--continue", file, "I am Ada.").want(t, exitOK)
	second := newBodyModel(t, `{"model":"m","choices":[{"message":{"content":"You are Ada."},"finish_reason":"stop"}]}`)
	runAsk(t, dir, second, false, "", "--continue", file, "Who am I?").want(t, exitOK)
	if req := second.requests()[0]; !strings.Contains(req, "I am Ada.") || !strings.Contains(req, "Hello, Ada.") {
		t.Errorf("the second question came without the first conversation: %s", req)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the conversation file: %v, mode %v; want 0600", err, st.Mode())
	}
	data, _ := os.ReadFile(file)
	var tr struct {
		Messages []mcpclient.SamplingMessage `json:"messages"`
		Answer   string                      `json:"answer"`
	}
	if err := json.Unmarshal(data, &tr); err != nil || len(tr.Messages) != 4 || tr.Answer != "You are Ada." {
		t.Errorf("saved %d messages, answer %q (%v); want 4 and the second answer", len(tr.Messages), tr.Answer, err)
	}
	os.WriteFile(file, []byte(`{"messages":[{"role":"system","content":[]}]}`), 0o600)
	runAsk(t, dir, second, false, "", "--continue", file, "Hm?").want(t, exitUsage, `message 0 has role "system"`)
}

// --tools offers a subset, and says which; --no-stream and
// --max-tokens-field shape the request.
func TestAskToolsAndRequestFlags(t *testing.T) {
	dir := demoDir(t)
	f := newBodyModel(t, `{"model":"m","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`)
	r := runAsk(t, dir, f, false, "", "--tools", "mcp__demo__add,mcp__demo__e*", "--no-stream", "--max-tokens-field", "max_tokens", "Hi")
	r.want(t, exitOK)
	if !strings.Contains(r.stderr, "tools offered (3): mcp__demo__echo, mcp__demo__add, mcp__demo__elicit\n") {
		t.Errorf("stderr %q does not name the tools offered", r.stderr)
	}
	var req struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
		Stream    *bool `json:"stream"`
		MaxTokens int   `json:"max_tokens"`
	}
	json.Unmarshal([]byte(f.requests()[0]), &req)
	if len(req.Tools) != 3 || req.Stream != nil || req.MaxTokens == 0 {
		t.Errorf("request %s: want 3 tools, no stream, max_tokens", f.requests()[0])
	}
	runAsk(t, dir, f, false, "", "--max-tokens-field", "tokens", "Hi").want(t, exitUsage, "--max-tokens-field")
}

// An OpenAI-compatible server on loopback needs no key; any other does.
func TestAskKeylessLoopback(t *testing.T) {
	dir := demoDir(t)
	f := newBodyModel(t, `{"model":"m","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`)
	r := runEnv(t, dir, map[string]string{"OPENAI_BASE_URL": f.URL + "/v1"}, "--server", "demo", "ask", "--model", "openai:local", "Hi")
	r.want(t, exitOK)
	if r.stdout != "ok\n" || f.auth[0] != "" {
		t.Errorf("got %q, Authorization %q; want the answer, sent with no key", r.stdout, f.auth[0])
	}
	r = runEnv(t, dir, map[string]string{"OPENAI_BASE_URL": "https://models.example/v1"}, "--server", "demo", "ask", "--model", "openai:x", "Hi")
	r.want(t, exitUsage, "set OPENAI_API_KEY")
}

// An --allow pattern that spells out a server approves that server's
// tools alone, though the exposed names of a server named "fs__x" begin
// as those of fs do.
func TestAllowNamesOneServer(t *testing.T) {
	for _, tc := range []struct {
		pattern, name, server, tool string
		ok                          bool
	}{
		{"mcp__fs__*", "mcp__fs__read", "fs", "read", true},
		{"mcp__fs__*", "mcp__fs__x__rm", "fs", "x__rm", true},
		{"mcp__fs__*", "mcp__fs__x__rm", "fs__x", "rm", false},
		{"mcp__fs__x__*", "mcp__fs__x__rm", "fs__x", "rm", true},
		{"mcp__fs__read", "mcp__fs__read", "fs", "read", true},
		{"mcp__f*", "mcp__fs__x__rm", "fs__x", "rm", true}, // a wildcard across servers, as written
		{"*", "mcp__fs__x__rm", "fs__x", "rm", true},
		{"mcp__fs__*", "mcp__git__rm", "git", "rm", false},
	} {
		call := toolreg.Call{Name: tc.name, Server: tc.server, Tool: tc.tool}
		if got := allows(tc.pattern, call); got != tc.ok {
			t.Errorf("--allow %s, %s of server %q: got %v, want %v", tc.pattern, tc.name, tc.server, got, tc.ok)
		}
	}
}
