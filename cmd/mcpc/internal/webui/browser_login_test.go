package webui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
	if b.Text("#server-list .auth") != "" {
		t.Errorf("a connected server still offers a login: %q", b.Text("#server-list .auth"))
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
