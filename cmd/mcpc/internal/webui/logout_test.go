package webui

import (
	"net/http"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// pageOrigin is the Origin the page's own requests carry.
func pageOrigin(srv *Server) string { return strings.Split(srv.URL(), "/t/")[0] }

// loginThroughPage logs the page in to "secure" as the person would:
// the login's URL followed to the redirect, and the flow waited for.
func loginThroughPage(t *testing.T, srv *Server, stepUp bool) {
	t.Helper()
	body := `{"server":"secure"}`
	if stepUp {
		body = `{"server":"secure","stepUp":true}`
	}
	_, st := post(t, srv.URL()+"api/login", pageOrigin(srv), "application/json", body)
	authURL, _ := st["url"].(string)
	if st["state"] != "waiting" || authURL == "" {
		t.Fatalf("the login: %v", st)
	}
	authorize(t, authURL)
	if end := waitLogin(t, srv, "secure"); end.State != "done" {
		t.Fatalf("the login ended %+v", end)
	}
}

// callHello calls secure's tool from the page, as the person does.
func callHello(t *testing.T, srv *Server) map[string]any {
	t.Helper()
	resp, r := post(t, srv.URL()+"api/call", pageOrigin(srv), "application/json", `{"from":"person","name":"mcp__secure__hello","args":{}}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the call: %d %v", resp.StatusCode, r)
	}
	return r
}

// Log out on the page revokes the server's tokens, forgets them, and
// ends the session that held one: the server then needs a login again,
// which the page offers, and a call fails rather than going on with the
// old token. When the authorization server cannot revoke them, the page
// says so, and the running session stops using the token all the same
// (the server would still take it).
func TestLogoutFromThePage(t *testing.T) {
	for _, tc := range []struct {
		name      string
		revokeErr int // the revocation endpoint's failure, if any
	}{{"revoked", 0}, {"revocation fails", http.StatusServiceUnavailable}} {
		t.Run(tc.name, func(t *testing.T) {
			leakcheck.Check(t)
			srv, as := startAuthPage(t)
			as.FailRevocation(tc.revokeErr)
			loginThroughPage(t, srv, false)
			if list := servers(t, srv); list[0].State != "connected" || !list[0].CanLogout || list[0].CanLogin {
				t.Fatalf("servers after the login: %+v", list)
			}
			if r := callHello(t, srv); r["error"] != nil {
				t.Fatalf("a call after the login: %v", r)
			}
			if resp, _ := post(t, srv.URL()+"api/logout", "", "application/json", `{"server":"secure"}`); resp.StatusCode != http.StatusForbidden {
				t.Errorf("a logout without the page's Origin: %d, want 403", resp.StatusCode)
			}
			if resp, _ := post(t, srv.URL()+"api/logout", pageOrigin(srv), "application/json", `{"server":"nope"}`); resp.StatusCode != http.StatusNotFound {
				t.Errorf("a logout of an unknown server: %d, want 404", resp.StatusCode)
			}
			resp, out := post(t, srv.URL()+"api/logout", pageOrigin(srv), "application/json", `{"server":"secure"}`)
			if resp.StatusCode != http.StatusOK || out["hadTokens"] != true || out["state"] != "needs-auth" {
				t.Fatalf("the logout: %d %v", resp.StatusCode, out)
			}
			if tc.revokeErr == 0 && (out["revoked"] != true || out["revokeError"] != nil || as.Valid() != 0) {
				t.Errorf("the logout revoked nothing: %v, %d tokens still valid", out, as.Valid())
			}
			if tc.revokeErr != 0 && (out["revoked"] != false || out["revokeError"] == nil || as.Valid() == 0) {
				t.Errorf("a failed revocation is not said: %v", out)
			}
			list := servers(t, srv)
			if list[0].State != "needs-auth" || !list[0].CanLogin || list[0].CanLogout || list[0].Login != nil {
				t.Errorf("servers after the logout: %+v", list)
			}
			if r := callHello(t, srv); r["error"] == nil {
				t.Errorf("a call after the logout went through: %v", r)
			}
			loginThroughPage(t, srv, false) // and the person can log in again
			if r := callHello(t, srv); r["error"] != nil {
				t.Errorf("a call after logging in again: %v", r)
			}
		})
	}
}

// A call the server refuses for want of scope (403 insufficient_scope)
// comes back with the page's offer to log in again for that scope; the
// login asks for it, and the person's next call goes through. The page
// never repeats the call itself: the server saw the one call.
func TestStepUpFromThePage(t *testing.T) {
	leakcheck.Check(t)
	srv, as := startAuthPage(t)
	loginThroughPage(t, srv, false)
	as.RequireCallScope("write")
	r := callHello(t, srv)
	up, _ := r["stepUp"].(map[string]any)
	if r["error"] == nil || up["server"] != "secure" || up["scope"] != "write" {
		t.Fatalf("a call refused for want of scope: %v", r)
	}
	_, st := post(t, srv.URL()+"api/login", pageOrigin(srv), "application/json", `{"server":"secure","stepUp":true}`)
	authURL, _ := st["url"].(string)
	if st["state"] != "waiting" || !strings.Contains(authURL, "scope=write") {
		t.Fatalf("the step-up login: %v", st)
	}
	authorize(t, authURL)
	if end := waitLogin(t, srv, "secure"); end.State != "done" {
		t.Fatalf("the step-up ended %+v", end)
	}
	if r := callHello(t, srv); r["error"] != nil || r["stepUp"] != nil {
		t.Errorf("the call after the step-up: %v", r)
	}
}

// A step-up login the server did not ask for (no call of it was refused
// for want of scope) fails, and asks the person nothing.
func TestNoStepUpWithoutTheServersAsking(t *testing.T) {
	srv, _ := startAuthPage(t)
	loginThroughPage(t, srv, false)
	_, st := post(t, srv.URL()+"api/login", pageOrigin(srv), "application/json", `{"server":"secure","stepUp":true}`)
	if st["state"] != "failed" || st["url"] != nil {
		t.Errorf("a step-up nobody asked for: %v", st)
	}
}

// Without Options.Auth the page offers no logout and refuses one.
func TestNoLogoutWithoutAuth(t *testing.T) {
	srv, _ := startPage(t, false)
	if resp, _ := post(t, srv.URL()+"api/logout", pageOrigin(srv), "application/json", `{"server":"apps"}`); resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("a logout with no Auth: %d, want 501", resp.StatusCode)
	}
	if list := servers(t, srv); list[0].CanLogout {
		t.Errorf("a page with no Auth offers a logout: %+v", list)
	}
}
