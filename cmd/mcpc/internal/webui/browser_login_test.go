package webui

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
)

// A server behind OAuth shows on the page as needing a login; the person
// clicks "Log in to secure", the page shows the authorization URL as a
// link (opened by nothing but a click), the browser follows it to the
// redirect, and the page then lists the server's tools. No token reaches
// the page.
func TestBrowserLogin(t *testing.T) {
	srv, as := startAuthPage(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	login := `document.querySelector('#server-list [aria-label="Log in to secure"]')`
	b.Wait("the Log in button", `return `+login+` ? "ok" : ""`, 30*time.Second)
	if got := b.Text("#server-list .needs-login"); got != "needs login at "+as.URL() {
		t.Errorf("the server's line says %q", got)
	}
	if n := b.Text("#tool-list"); n != "" {
		t.Errorf("tools before the login: %q", n)
	}
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("with a server that needs login, unnamed: %v", bad)
	}
	b.Eval(login+`.click(); return null`, nil)
	var link struct{ Href, Rel, Target, Label string }
	b.Wait("the authorization link", `return document.querySelector("#server-list .auth a") ? "ok" : ""`, 30*time.Second)
	b.Eval(`const a = document.querySelector("#server-list .auth a");
		return {Href: a.href, Rel: a.rel, Target: a.target, Label: a.getAttribute("aria-label")}`, &link)
	if !strings.HasPrefix(link.Href, as.URL()+"/authorize?") || !strings.Contains(link.Rel, "noopener") || link.Target != "_blank" ||
		!strings.HasSuffix(link.Label, "to log in to secure") {
		t.Errorf("the link: %+v", link)
	}
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("with the authorization link, unnamed: %v", bad)
	}
	if dir := os.Getenv(screenshotsEnv); dir != "" { // make screenshots: the README's picture of a login
		b.Screenshot(filepath.Join(dir, "web-login.png"))
	}
	if n := as.Registrations(); n != 1 {
		t.Errorf("%d clients registered by the login, want 1", n)
	}
	authorize(t, link.Href)
	tools := b.Wait("the server's tools", `const t = document.getElementById("tool-list").textContent; return t.includes("mcp__secure__hello") ? t : ""`, 30*time.Second)
	if !strings.Contains(tools, "Says hi") {
		t.Errorf("the tool list: %q", tools)
	}
	b.Wait("the server connected", `return document.querySelector("#server-list .state-connected") ? "ok" : ""`, 30*time.Second)
	if got := b.Text("#server-list .auth"); got != "Log out" {
		t.Errorf("a connected server's authorization reads %q, want its Log out alone", got)
	}
	var page string
	b.Eval(`return document.documentElement.outerHTML`, &page)
	if tok := regexp.MustCompile(`\b(at|rt)-[0-9a-f]{32}\b`).FindString(page); tok != "" {
		t.Errorf("a token reached the page: %s", tok)
	}
	var stray string
	b.Eval(strayText, &stray)
	if stray != "" {
		t.Errorf("a line reads %q", stray)
	}
}

// A logged-in server shows "Log out of secure"; a click revokes and
// forgets its tokens and ends the session that held one: the page then
// shows the server as needing a login, with its "Log in" button (its
// tools stay listed, as the registry keeps a server's last listing, and
// a call of one fails: TestLogoutFromThePage). A revocation the authorization server refused is said, with the
// tokens forgotten all the same.
func TestBrowserLogout(t *testing.T) {
	srv, as := startAuthPage(t)
	as.FailRevocation(503)
	loginThroughPage(t, srv, false)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	logout := `#server-list [aria-label="Log out of secure"]`
	b.Wait("the Log out button", `return document.querySelector('`+logout+`') ? "ok" : ""`, 30*time.Second)
	b.Wait("the server's tools", `return document.getElementById("tool-list").textContent.includes("mcp__secure__hello") ? "ok" : ""`, 30*time.Second)
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("with a server logged in, unnamed: %v", bad)
	}
	b.Click(logout)
	b.Wait("the Log in button", `return document.querySelector('#server-list [aria-label="Log in to secure"]') ? "ok" : ""`, 30*time.Second)
	b.Wait("the page listed anew", `return document.getElementById("status").textContent === "1 tool" ? "ok" : ""`, 30*time.Second)
	if got := b.Text("#server-list .auth .desc"); !strings.HasPrefix(got, "logged out of secure; the tokens could not be revoked") || !strings.Contains(got, "503") {
		t.Errorf("the server's line says %q, want the logout and the failed revocation", got)
	}
	if b.Text("#server-list .state-needs-auth") == "" {
		t.Errorf("the server is not shown as needing a login: %q", b.Text("#server-list"))
	}
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("after the logout, unnamed: %v", bad)
	}
}

// A call the server refuses for want of scope shows "Log in again for
// more access"; its click runs the login for the wider scope (a link the
// person opens), and "Call again" then makes the call once more, at the
// person's click: the page did not repeat it on its own.
func TestBrowserStepUp(t *testing.T) {
	var calls atomic.Int64 // tools/call that reached the server
	mcp := tinyMCP()
	srv, as := startAuthPageOver(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"tools/call"`) {
			calls.Add(1)
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		mcp.ServeHTTP(w, r)
	}))
	loginThroughPage(t, srv, false)
	as.RequireCallScope("write")
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__secure__hello")
	b.Click("#call-btn")
	more := `#result [aria-label="Log in again to secure for more access"]`
	b.Wait("the step-up", `return document.querySelector('`+more+`') ? "ok" : ""`, 30*time.Second)
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("with the step-up offered, unnamed: %v", bad)
	}
	b.Click(more)
	href := b.Wait("the authorization link", `return document.querySelector("#result .step-up a")?.href || ""`, 30*time.Second)
	u, err := url.Parse(href)
	if err != nil || !strings.HasPrefix(href, as.URL()+"/authorize?") || !slices.Contains(strings.Fields(u.Query().Get("scope")), "write") {
		t.Fatalf("the step-up's link: %s", href)
	}
	authorize(t, href)
	again := `#result [aria-label="Call mcp__secure__hello again"]`
	b.Wait("Call again", `return document.querySelector('`+again+`') ? "ok" : ""`, 30*time.Second)
	b.Wait("the page listed anew", `return document.getElementById("status").textContent === "1 tool" ? "ok" : ""`, 30*time.Second)
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("after the step-up, unnamed: %v", bad)
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("%d calls reached the server before the person called again", n)
	}
	b.Click(again)
	b.Wait("the result", `return document.querySelector("#result .text-content")?.textContent === "hi" ? "ok" : ""`, 30*time.Second)
	if n := calls.Load(); n != 1 {
		t.Errorf("%d calls reached the server, want the person's one", n)
	}
}
