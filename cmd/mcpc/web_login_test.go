package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakeauth"
)

// webAPI posts body to the page's API (with the page's Origin, as the
// page does) or gets path when body is empty, and returns what it
// answered.
func webAPI(t *testing.T, page, path, body string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, page+"api/"+path, nil)
	if body != "" {
		u, _ := url.Parse(page)
		req, _ = http.NewRequest(http.MethodPost, page+"api/"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://"+u.Host)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// mcpc web logs in to a server behind OAuth as mcpc login does: the
// page's login hands it the authorization URL (no browser opens on its
// own), the redirect reaches mcpc's loopback listener, the tokens land
// in the token file, and the page then lists the server's tools. No
// token shows in any answer of the page nor in mcpc's output.
func TestWebLogsInAsLoginDoes(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	trustAll(home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("AppData", filepath.Join(home, "AppData"))
	target, err := url.Parse(newHTTPDemo(t).url)
	if err != nil {
		t.Fatal(err)
	}
	as := fakeauth.New(httputil.NewSingleHostReverseProxy(target))
	t.Cleanup(as.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"web": {"type": "http", "url": "`+as.URL()+`/mcp"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	old := openBrowser
	t.Cleanup(func() { openBrowser = old })
	openBrowser = func(u string) error { t.Errorf("mcpc web opened %s on its own", u); return nil }

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan struct{})
	stdout := &watchWriter{want: "\n", seen: seen}
	var stderr bytes.Buffer
	c := &cli{dir: dir, stdin: strings.NewReader(""), stdout: stdout, stderr: &stderr}
	done := make(chan int, 1)
	go func() { done <- c.run(ctx, []string{"web"}) }()
	select {
	case <-seen:
	case code := <-done:
		t.Fatalf("mcpc web ended with %d:\n%s", code, stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("no URL printed")
	}
	page := strings.TrimSpace(stdout.String())
	var answers []string
	call := func(path, body string) string {
		a := webAPI(t, page, path, body)
		answers = append(answers, a)
		return a
	}

	if s := call("servers", ""); !strings.Contains(s, `"state":"needs-auth"`) || !strings.Contains(s, `"canLogin":true`) {
		t.Fatalf("servers before the login: %s", s)
	}
	var st struct{ State, URL, Error string }
	json.Unmarshal([]byte(call("login", `{"server":"web"}`)), &st)
	authURL, err := url.Parse(st.URL)
	if st.State != "waiting" || err != nil || !strings.HasPrefix(st.URL, as.URL()+"/authorize?") {
		t.Fatalf("the login: %+v", st)
	}
	redirect, err := fakeauth.Browser(authURL)
	if err != nil {
		t.Fatal(err)
	}
	if redirect.Hostname() != "127.0.0.1" || redirect.Path != "/callback" {
		t.Errorf("the redirect goes to %s, want mcpc's loopback listener", redirect.Redacted())
	}
	if resp, err := http.Get(redirect.String()); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	deadline := time.Now().Add(20 * time.Second)
	for json.Unmarshal([]byte(call("login?server=web", "")), &st); st.State == "waiting" && time.Now().Before(deadline); json.Unmarshal([]byte(call("login?server=web", "")), &st) {
		time.Sleep(50 * time.Millisecond)
	}
	if st.State != "done" {
		t.Fatalf("the login ended %+v\n%s", st, stderr.String())
	}
	if tools := call("tools", ""); !strings.Contains(tools, "mcp__web__add") {
		t.Errorf("tools after the login: %s", tools)
	}
	path, _ := tokenFile()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("no token file after the login: %v", err)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("mcpc web did not stop when interrupted")
	}
	token := regexp.MustCompile(`\b(at|rt)-[0-9a-f]{32}\b`)
	for _, s := range append(answers, stdout.String(), stderr.String()) {
		if tok := token.FindString(s); tok != "" {
			t.Errorf("a token showed: %s", tok)
		}
	}
}
