package webui

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// servers is the page's server list.
func servers(t *testing.T, srv *Server) []serverJSON {
	t.Helper()
	var out []serverJSON
	if err := json.NewDecoder(get(t, srv.URL()+"api/servers", "").Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// waitLogin polls the server's login until it is no longer under way.
func waitLogin(t *testing.T, srv *Server, server string) loginState {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var st loginState
		json.NewDecoder(get(t, srv.URL()+"api/login?server="+url.QueryEscape(server), "").Body).Decode(&st)
		if st.State != "starting" && st.State != "waiting" {
			return st
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the login did not end")
	return loginState{}
}

// A server behind OAuth shows as needing a login the page can start; the
// login answers with the authorization URL (no token, ever), and once the
// person has authorized, the server is connected with its tools.
func TestLoginFromThePage(t *testing.T) {
	leakcheck.Check(t)
	srv, as := startAuthPage(t)
	origin := "http://" + strings.TrimPrefix(strings.Split(srv.URL(), "/t/")[0], "http://")
	list := servers(t, srv)
	if len(list) != 1 || list[0].State != "needs-auth" || !list[0].CanLogin || list[0].AuthServer != as.URL() {
		t.Fatalf("servers before the login: %+v", list)
	}
	resp, body := post(t, srv.URL()+"api/login", "", "application/json", `{"server":"secure"}`)
	if resp.StatusCode != 403 {
		t.Errorf("a login without the page's Origin: %d, want 403", resp.StatusCode)
	}
	resp, body = post(t, srv.URL()+"api/login", origin, "application/json", `{"server":"nope"}`)
	if resp.StatusCode != 404 {
		t.Errorf("a login of an unknown server: %d %v", resp.StatusCode, body)
	}
	resp, body = post(t, srv.URL()+"api/login", origin, "application/json", `{"server":"secure"}`)
	authURL, _ := body["url"].(string)
	if resp.StatusCode != 200 || body["state"] != "waiting" || !strings.HasPrefix(authURL, as.URL()+"/authorize?") {
		t.Fatalf("the login: %d %v", resp.StatusCode, body)
	}
	// A second click while the person authorizes joins the same flow.
	_, again := post(t, srv.URL()+"api/login", origin, "application/json", `{"server":"secure"}`)
	if again["url"] != authURL {
		t.Errorf("a second login started another flow: %v", again)
	}
	if got := servers(t, srv)[0].Login; got == nil || got.URL != authURL {
		t.Errorf("the server list shows the login as %+v", got)
	}
	authorize(t, authURL)
	if st := waitLogin(t, srv, "secure"); st.State != "done" {
		t.Fatalf("the login ended %+v", st)
	}
	list = servers(t, srv)
	if list[0].State != "connected" || list[0].Tools != 1 || list[0].CanLogin {
		t.Errorf("servers after the login: %+v", list)
	}
	var tools []toolJSON
	json.NewDecoder(get(t, srv.URL()+"api/tools", "").Body).Decode(&tools)
	if len(tools) != 1 || tools[0].Name != "mcp__secure__hello" {
		t.Errorf("tools after the login: %+v", tools)
	}
}

// showFunc is an Auth whose flow hands the page authURL.
type showFunc string

func (u showFunc) Login(ctx context.Context, _ string, _ bool, show func(string) error) error {
	return show(string(u))
}

func (showFunc) StepUpScope(string, error) (string, bool)          { return "", false }
func (showFunc) LoggedIn(context.Context, string) bool             { return false }
func (showFunc) Logout(context.Context, string) (LoggedOut, error) { return LoggedOut{}, nil }

// An authorization URL that is not https (or http on loopback) is never
// shown: the login fails with the reason, and the page gets no link.
func TestLoginRefusesAnUnsafeAuthorizationURL(t *testing.T) {
	for _, bad := range []string{"javascript:alert(1)", "http://evil.example/authorize", "file:///etc/passwd", "mcpc://x"} {
		srv, _ := startPageWith(t, Options{Auth: showFunc(bad)})
		origin := "http://" + strings.TrimPrefix(strings.Split(srv.URL(), "/t/")[0], "http://")
		_, body := post(t, srv.URL()+"api/login", origin, "application/json", `{"server":"apps"}`)
		if body["state"] != "failed" || body["url"] != nil || body["error"] == nil {
			t.Errorf("%s: the page got %v", bad, body)
		}
	}
}

// Without Options.Auth the page offers no login and refuses one.
func TestNoLoginWithoutAuth(t *testing.T) {
	srv, _ := startPage(t, false)
	origin := "http://" + strings.TrimPrefix(strings.Split(srv.URL(), "/t/")[0], "http://")
	if resp, _ := post(t, srv.URL()+"api/login", origin, "application/json", `{"server":"apps"}`); resp.StatusCode != 501 {
		t.Errorf("a login with no Auth: %d, want 501", resp.StatusCode)
	}
}

// Closing the page ends a login that waits for the person, and leaves
// nothing of it running.
func TestCloseEndsALoginUnderWay(t *testing.T) {
	leakcheck.Check(t)
	srv, _ := startAuthPage(t)
	origin := "http://" + strings.TrimPrefix(strings.Split(srv.URL(), "/t/")[0], "http://")
	if _, body := post(t, srv.URL()+"api/login", origin, "application/json", `{"server":"secure"}`); body["state"] != "waiting" {
		t.Fatalf("the login: %v", body)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Close() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waits for the person")
	}
}

// TestServerTextIsBounded: a server's title and instructions reach the
// page's server list cut short, not as long as the server made them
// (the session keeps them up to the message limit, and the page polls).
func TestServerTextIsBounded(t *testing.T) {
	app := appserver.New()
	app.Title = strings.Repeat("T", 1<<20)
	app.Instructions = strings.Repeat("i", 1<<20)
	srv, _ := startPageOver(t, Options{}, app)
	list := servers(t, srv)
	if len(list) != 1 {
		t.Fatalf("%d servers, want 1", len(list))
	}
	if n := len(list[0].Title); n == 0 || n > inboxText+8 {
		t.Errorf("the title is %d bytes on the page", n)
	}
	if n := len(list[0].Instructions); n == 0 || n > serverInstructions+8 {
		t.Errorf("the instructions are %d bytes on the page", n)
	}
}
