package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const fakeKey = "sk-fake-key-0123456789"

// fakeModel is a provider that answers with bodies in order (the last
// repeats) and keeps the requests it got.
type fakeModel struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
	got    []*http.Request
}

func newFakeModel(t *testing.T, bodies ...string) *fakeModel {
	f := &fakeModel{bodies: bodies}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		f.mu.Lock()
		n := len(f.got)
		f.got = append(f.got, r)
		body := f.bodies[min(n, len(f.bodies)-1)]
		f.mu.Unlock()
		if strings.HasPrefix(body, "data:") {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeModel) requests() []*http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*http.Request(nil), f.got...)
}

// runEnv runs mcpc in dir with the given environment only.
func runEnv(t *testing.T, dir string, env map[string]string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { return env[k] }}
	code := c.run(ctx, args)
	return result{code, stdout.String(), stderr.String()}
}

// addModel is a provider whose model calls mcp__demo__add once, then
// answers with the sum; it returns the environment that points mcpc at it.
func addModel(t *testing.T) (*fakeModel, map[string]string) {
	f := newFakeModel(t,
		`{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
			{"id":"c1","type":"function","function":{"name":"mcp__demo__add","arguments":"{\"a\": 2, \"b\": 40}"}}]},
			"finish_reason":"tool_calls"}]}`,
		`{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":"The sum is 42."},"finish_reason":"stop"}]}`)
	return f, map[string]string{"OPENAI_API_KEY": fakeKey, "OPENAI_BASE_URL": f.URL + "/v1"}
}

func TestAsk(t *testing.T) {
	dir := demoDir(t)
	f, env := addModel(t)
	r := runEnv(t, dir, env, "--server", "demo", "ask", "--trust-annotations", "demo", "--model", "openai:gpt-test", "What is 2+40?")
	r.want(t, exitOK)
	if r.stdout != "The sum is 42.\n" {
		t.Errorf("stdout: got %q, want the answer", r.stdout)
	}
	if want := `tool mcp__demo__add {"a":2,"b":40} → 42`; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q does not summarize the call as %q", r.stderr, want)
	}
	reqs := f.requests()
	if len(reqs) != 2 || reqs[0].URL.Path != "/v1/chat/completions" || reqs[0].Header.Get("Authorization") != "Bearer "+fakeKey {
		t.Errorf("got %d requests, the first to %s; want 2 to /v1/chat/completions with the key", len(reqs), reqs[0].URL.Path)
	}

	_, env = addModel(t)
	r = runEnv(t, dir, env, "--server", "demo", "--json", "ask", "--trust-annotations", "demo", "--model", "openai:gpt-test", "What is 2+40?")
	r.want(t, exitOK)
	var tr struct {
		Answer   string            `json:"answer"`
		Turns    int               `json:"turns"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &tr); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	if tr.Answer != "The sum is 42." || tr.Turns != 2 || len(tr.Messages) != 4 {
		t.Errorf("--json: got answer %q, %d turns, %d messages; want the answer, 2, 4", tr.Answer, tr.Turns, len(tr.Messages))
	}
}

// A provider that streams: each turn's text reaches stdout as it comes,
// on lines of its own.
func TestAskStreams(t *testing.T) {
	dir := demoDir(t)
	f := newFakeModel(t,
		"data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Let me \"}}]}\n\n"+
			"data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"add.\",\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"mcp__demo__add\",\"arguments\":\"{\\\"a\\\":1,\\\"b\\\":2}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n"+
			"data: [DONE]\n\n",
		"data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"It is \"}}]}\n\n"+
			"data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"3.\"},\"finish_reason\":\"stop\"}]}\n\n"+
			"data: [DONE]\n\n")
	env := map[string]string{"OPENAI_API_KEY": fakeKey, "OPENAI_BASE_URL": f.URL}
	r := runEnv(t, dir, env, "--server", "demo", "ask", "--trust-annotations", "*", "--model", "openai:m", "1+2?")
	r.want(t, exitOK)
	if want := "Let me add.\nIt is 3.\n"; r.stdout != want {
		t.Errorf("stdout: got %q, want %q", r.stdout, want)
	}
	if want := `tool mcp__demo__add {"a":1,"b":2} → 3`; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q does not summarize the call as %q", r.stderr, want)
	}
}

// A tool its server marks read-only (add) runs without asking only when
// --trust-annotations names its server: annotations are the server's
// word about its own tools.
func TestAskTrustsAnnotationsOnlyWhenTold(t *testing.T) {
	dir := demoDir(t)
	for _, tc := range []struct {
		trust []string
		ran   bool
	}{
		{nil, false},
		{[]string{"--trust-annotations", "other"}, false},
		{[]string{"--trust-annotations", "demo"}, true},
		{[]string{"--trust-annotations", "other,*"}, true},
	} {
		_, env := addModel(t)
		r := runEnv(t, dir, env, append(append([]string{"--server", "demo", "ask"}, tc.trust...), "--model", "openai:gpt-test", "What is 2+40?")...)
		r.want(t, exitOK)
		ran := strings.Contains(r.stderr, `tool mcp__demo__add {"a":2,"b":40} → 42`)
		refused := strings.Contains(r.stderr, "consent: refused, no terminal to ask (--allow mcp__demo__add or --yes would run it)")
		if ran != tc.ran || refused == tc.ran {
			t.Errorf("%v: ran %v, refused %v; want ran %v\n%s", tc.trust, ran, refused, tc.ran, r.stderr)
		}
	}
}

func TestAskUsageErrors(t *testing.T) {
	dir := demoDir(t)
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		err  string
	}{
		{"no model", nil, []string{"ask", "hi"}, "ask needs --model PROVIDER:NAME"},
		{"no openai key", nil, []string{"ask", "--model", "openai:gpt-x", "hi"}, "openai:gpt-x: set OPENAI_API_KEY"},
		{"no anthropic key", map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"ask", "--model", "anthropic:claude-x", "hi"}, "set ANTHROPIC_API_KEY"},
		{"unknown provider", nil, []string{"ask", "--model", "mistral:large", "hi"}, `unknown provider "mistral"`},
		{"no name", nil, []string{"ask", "--model", "openai:", "hi"}, "want PROVIDER:NAME"},
		{"sampling without key", nil, []string{"--sampling", "anthropic:claude-x", "tools"}, "set ANTHROPIC_API_KEY"},
		{"sampling mode", nil, []string{"--sampling", "parrot", "tools"}, `want "echo" or PROVIDER:NAME`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runEnv(t, dir, tc.env, tc.args...)
			r.want(t, exitUsage, tc.err)
			if strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, fakeKey) {
				t.Errorf("stderr %q: want one line, without the key", r.stderr)
			}
		})
	}
}

// --sampling anthropic:NAME answers a server's sampling request with the
// provider's model.
func TestSamplingWithProvider(t *testing.T) {
	dir := demoDir(t)
	f := newFakeModel(t, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test",
		"content":[{"type":"text","text":"Pipes hum along."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	env := map[string]string{"ANTHROPIC_API_KEY": fakeKey, "ANTHROPIC_BASE_URL": f.URL}
	r := runEnv(t, dir, env, "--server", "demo", "--sampling", "anthropic:claude-test", "call", "mcp__demo__sample", `{"prompt":"Pipes?"}`)
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "Pipes hum along.") {
		t.Errorf("stdout %q does not hold the model's answer", r.stdout)
	}
	reqs := f.requests()
	if len(reqs) != 1 || reqs[0].URL.Path != "/v1/messages" || reqs[0].Header.Get("x-api-key") != fakeKey {
		t.Errorf("got %d requests; want 1 to /v1/messages with the key", len(reqs))
	}
}
