package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// A step-up is the failed call's server's: a 403 from one server never
// sends the person to log in to another, whose own last refusal asked for
// more scope. Here "aaa" forbids a call outright, "bbb" refused
// everything with insufficient_scope, and "ccc" wants more scope for a
// call: aaa's failure is its own, and ccc's asks for ccc's scope, never
// for a login at bbb.
func TestStepUpIsTheFailedCallsServers(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("AppData", filepath.Join(home, "AppData"))

	// forbidding is a demo server behind a proxy that answers every
	// tools/call 403, with the challenge given, if any.
	forbidding := func(challenge string) *httptest.Server {
		target, err := url.Parse(newHTTPDemo(t).url)
		if err != nil {
			t.Fatal(err)
		}
		proxy := httputil.NewSingleHostReverseProxy(target)
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if bytes.Contains(body, []byte(`"tools/call"`)) {
				if challenge != "" {
					w.Header().Set("WWW-Authenticate", challenge)
				}
				http.Error(w, "forbidden", http.StatusForbidden)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			proxy.ServeHTTP(w, r)
		}))
		t.Cleanup(s.Close)
		return s
	}
	aaa := forbidding("")
	ccc := forbidding(`Bearer error="insufficient_scope", scope="write"`)
	bbb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
		http.Error(w, "more scope", http.StatusForbidden)
	}))
	t.Cleanup(bbb.Close)

	dir := t.TempDir()
	cfg := writeConfig(t, dir, "two.json", map[string]any{
		"aaa": map[string]any{"type": "http", "url": aaa.URL + "/mcp"},
		"bbb": map[string]any{"type": "http", "url": bbb.URL + "/mcp"},
		"ccc": map[string]any{"type": "http", "url": ccc.URL + "/mcp"},
	})
	f := newFakeModel(t,
		`{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
			{"id":"c1","type":"function","function":{"name":"mcp__aaa__echo","arguments":"{\"text\": \"hi\"}"}},
			{"id":"c2","type":"function","function":{"name":"mcp__ccc__echo","arguments":"{\"text\": \"hi\"}"}}]},
			"finish_reason":"tool_calls"}]}`,
		`{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":"It failed."},"finish_reason":"stop"}]}`)
	env := map[string]string{"OPENAI_API_KEY": fakeKey, "OPENAI_BASE_URL": f.URL + "/v1"}
	r := runEnv(t, dir, env, "--config", cfg, "--allow", "mcp__*__echo", "ask", "--model", "openai:gpt-test", "Echo hi.")
	if strings.Contains(r.stderr, "bbb needs more scope") || strings.Count(r.stderr, "login --scope") != 1 ||
		!strings.Contains(r.stderr, `the server ccc needs more scope (write) for this: run: mcpc login --scope "write" ccc`) {
		t.Errorf("want a step-up asked of ccc alone, for its own call:\n%s", r.stderr)
	}
}
