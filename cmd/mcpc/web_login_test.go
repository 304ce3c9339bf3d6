package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakeauth"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
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

// webRun is mcpc web over one server, "web", behind a fake OAuth
// authorization server, with a home of its own: mcp, or the demo server
// (one session: it takes no second initialize) when nil.
type webRun struct {
	page   string // the page's URL
	as     *fakeauth.Server
	stdout *watchWriter
	stderr *bytes.Buffer
	stop   func() // interrupts mcpc web and waits for it
}

func startWebAuth(t *testing.T, mcp http.Handler) *webRun {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	trustAll(home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("AppData", filepath.Join(home, "AppData"))
	if mcp == nil {
		target, err := url.Parse(newHTTPDemo(t).url)
		if err != nil {
			t.Fatal(err)
		}
		mcp = httputil.NewSingleHostReverseProxy(target)
	}
	as := fakeauth.New(mcp)
	t.Cleanup(as.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"web": {"type": "http", "url": "`+as.URL()+`/mcp"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	old := openBrowser
	t.Cleanup(func() { openBrowser = old })
	openBrowser = func(u string) error { t.Errorf("mcpc web opened %s on its own", u); return nil }

	ctx, cancel := context.WithCancel(context.Background())
	seen := make(chan struct{})
	w := &webRun{as: as, stdout: &watchWriter{want: "\n", seen: seen}, stderr: &bytes.Buffer{}}
	c := &cli{dir: dir, stdin: strings.NewReader(""), stdout: w.stdout, stderr: w.stderr}
	done := make(chan int, 1)
	go func() { done <- c.run(ctx, []string{"web"}) }()
	stopped := false
	w.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("mcpc web did not stop when interrupted")
		}
	}
	t.Cleanup(w.stop)
	select {
	case <-seen:
	case code := <-done:
		t.Fatalf("mcpc web ended with %d:\n%s", code, w.stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("no URL printed")
	}
	w.page = strings.TrimSpace(w.stdout.String())
	return w
}

// login logs the page in to "web" as the person does (body picks a
// step-up), and returns the authorization URL it was shown.
func (w *webRun) login(t *testing.T, call func(path, body string) string, body string) *url.URL {
	t.Helper()
	var st struct{ State, URL, Error string }
	json.Unmarshal([]byte(call("login", body)), &st)
	authURL, err := url.Parse(st.URL)
	if st.State != "waiting" || err != nil || !strings.HasPrefix(st.URL, w.as.URL()+"/authorize?") {
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
		t.Fatalf("the login ended %+v\n%s", st, w.stderr.String())
	}
	return authURL
}

// mcpc web logs in to a server behind OAuth as mcpc login does: the
// page's login hands it the authorization URL (no browser opens on its
// own), the redirect reaches mcpc's loopback listener, the tokens land
// in the token file, and the page then lists the server's tools. No
// token shows in any answer of the page nor in mcpc's output.
func TestWebLogsInAsLoginDoes(t *testing.T) {
	w := startWebAuth(t, nil)
	var answers []string
	call := func(path, body string) string {
		a := webAPI(t, w.page, path, body)
		answers = append(answers, a)
		return a
	}
	if s := call("servers", ""); !strings.Contains(s, `"state":"needs-auth"`) || !strings.Contains(s, `"canLogin":true`) {
		t.Fatalf("servers before the login: %s", s)
	}
	w.login(t, call, `{"server":"web"}`)
	if tools := call("tools", ""); !strings.Contains(tools, "mcp__web__add") {
		t.Errorf("tools after the login: %s", tools)
	}
	path, _ := tokenFile()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("no token file after the login: %v", err)
	}
	w.stop()
	token := regexp.MustCompile(`\b(at|rt)-[0-9a-f]{32}\b`)
	for _, s := range append(answers, w.stdout.String(), w.stderr.String()) {
		if tok := token.FindString(s); tok != "" {
			t.Errorf("a token showed: %s", tok)
		}
	}
}

// mcpc web logs out as mcpc logout does, with the same code: the tokens
// are revoked at the authorization server and gone from the token file,
// and the server needs a login again.
func TestWebLogsOutAsLogoutDoes(t *testing.T) {
	w := startWebAuth(t, nil)
	call := func(path, body string) string { return webAPI(t, w.page, path, body) }
	w.login(t, call, `{"server":"web"}`)
	if s := call("servers", ""); !strings.Contains(s, `"canLogout":true`) {
		t.Fatalf("servers after the login: %s", s)
	}
	var out struct {
		HadTokens, Revoked bool
		State              string
	}
	json.Unmarshal([]byte(call("logout", `{"server":"web"}`)), &out)
	if !out.HadTokens || !out.Revoked || out.State != "needs-auth" || w.as.Revoked() == 0 || w.as.Valid() != 0 {
		t.Errorf("the logout: %+v, %d tokens revoked, %d still valid", out, w.as.Revoked(), w.as.Valid())
	}
	path, _ := tokenFile()
	if tok, err := (&oauth.FileStore{Path: path}).Load(context.Background(), w.as.URL()+"/mcp"); err != nil || tok != nil {
		t.Errorf("the token file after the logout: %v %v", tok, err)
	}
	if s := call("servers", ""); !strings.Contains(s, `"state":"needs-auth"`) || strings.Contains(s, `"canLogout":true`) {
		t.Errorf("servers after the logout: %s", s)
	}
}

// A call mcpc web's page makes that the server refuses for want of scope
// offers the step-up, as mcpc call does at a terminal; its login asks
// for that scope, and the call then goes through.
func TestWebStepsUp(t *testing.T) {
	w := startWebAuth(t, statelessAdder())
	call := func(path, body string) string { return webAPI(t, w.page, path, body) }
	w.login(t, call, `{"server":"web"}`)
	w.as.RequireCallScope("write")
	args := `{"from":"person","name":"mcp__web__add","args":{"a":2,"b":40}}`
	var res struct {
		Error  string
		StepUp struct{ Server, Scope string }
	}
	json.Unmarshal([]byte(call("call", args)), &res)
	if res.Error == "" || res.StepUp.Server != "web" || res.StepUp.Scope != "write" {
		t.Fatalf("a call refused for want of scope: %+v", res)
	}
	if u := w.login(t, call, `{"server":"web","stepUp":true}`); !slices.Contains(strings.Fields(u.Query().Get("scope")), "write") {
		t.Errorf("the step-up asked for %q", u.Query().Get("scope"))
	}
	if r := call("call", args); !strings.Contains(r, "42") {
		t.Errorf("the call after the step-up: %s", r)
	}
}

// statelessAdder is an MCP server over HTTP in the handshake era with no
// session, which any number of connections may initialize: one tool,
// "add", which answers 42.
func statelessAdder() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage
			Method string
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := map[string]string{
			"initialize": `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"adder","version":"1"}}`,
			"tools/list": `{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}`,
			"tools/call": `{"content":[{"type":"text","text":"42"}]}`,
		}[m.Method]
		w.Header().Set("Content-Type", "application/json")
		if result == "" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`, m.ID)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	})
}

// A logout waits for a refresh in flight (which holds the server's key in
// the token file) and then revokes what it saved: it used to revoke the
// tokens it read at once, and then delete the refreshed ones unrevoked.
func TestLogoutWaitsForARefreshInFlight(t *testing.T) {
	w := startWebAuth(t, nil)
	call := func(path, body string) string { return webAPI(t, w.page, path, body) }
	w.login(t, call, `{"server":"web"}`)
	path, _ := tokenFile()
	_, unlock, err := (&oauth.FileStore{Path: path}).Lock(context.Background(), w.as.URL()+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() { done <- call("logout", `{"server":"web"}`) }()
	time.Sleep(300 * time.Millisecond) // a logout that does not wait revokes within this
	revokedEarly := w.as.Revoked()
	unlock()
	out := <-done
	if revokedEarly != 0 {
		t.Errorf("the logout revoked %d tokens while a refresh held the token file", revokedEarly)
	}
	if !strings.Contains(out, `"revoked":true`) || w.as.Valid() != 0 {
		t.Errorf("the logout once the refresh ended: %s, %d tokens still valid", out, w.as.Valid())
	}
}
