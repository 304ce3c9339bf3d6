package main

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/fakeauth"
)

// The whole flow: a server behind OAuth needs authorization; mcpc login
// runs the flow through a scripted browser that follows the authorization
// URL and hits the loopback redirect; the tokens land in a 0600 file under
// the user config directory, where the next run finds them; logout
// forgets them.
func TestLoginEndToEnd(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	trustAll(home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("AppData", filepath.Join(home, "AppData"))
	// The demo endpoint serves one session: each run gets a fresh one.
	var mu sync.Mutex
	var behind http.Handler
	fresh := func() {
		target, err := url.Parse(newHTTPDemo(t).url)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		behind = httputil.NewSingleHostReverseProxy(target)
		mu.Unlock()
	}
	fresh()
	as := fakeauth.New(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		h := behind
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(as.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"web": {"type": "http", "url": "`+as.URL()+`/mcp"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}

	opened := 0
	old := openBrowser
	t.Cleanup(func() { openBrowser = old })
	openBrowser = func(u string) error {
		opened++
		authURL, err := url.Parse(u)
		if err != nil {
			return err
		}
		go func() {
			redirect, err := fakeauth.Browser(authURL)
			if err != nil {
				t.Errorf("browser: %v", err)
				return
			}
			if redirect.Hostname() != "127.0.0.1" {
				t.Errorf("redirect to %s, want the loopback listener", redirect.Host)
			}
			resp, err := http.Get(redirect.String())
			if err != nil {
				t.Errorf("browser: %v", err)
				return
			}
			resp.Body.Close()
		}()
		return nil
	}

	r := runIn(t, dir, "", "tools")
	r.want(t, exitConnect, `server "web" needs authorization at `+as.URL(), "mcpc login web")

	r = runIn(t, dir, "", "--json", "servers")
	r.want(t, exitConnect)
	if !strings.Contains(r.stdout, `"state": "needs-auth"`) || !strings.Contains(r.stdout, `"authServer": "`+as.URL()+`"`) {
		t.Errorf("servers --json: %s", r.stdout)
	}

	if n := as.Registrations(); n != 0 {
		t.Errorf("tools and servers without a token registered %d clients, want none", n)
	}

	r = runIn(t, dir, "", "login", "web")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "logged in to web") || !strings.Contains(r.stderr, as.URL()+"/authorize?") || opened != 1 {
		t.Fatalf("login: opened %d\nstdout %s\nstderr %s", opened, r.stdout, r.stderr)
	}
	path, err := tokenFile()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(path, home) {
		t.Fatalf("token file %s is not under the test's home", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v", fi.Mode())
	}

	// The next run uses the stored token, without the browser.
	fresh()
	r = runIn(t, dir, "", "tools")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "add") || opened != 1 {
		t.Errorf("tools after login: opened %d\n%s", opened, r.stdout)
	}
	fresh()
	r = runIn(t, dir, "", "call", "mcp__web__add", `{"a": 2, "b": 40}`)
	r.want(t, 0)
	if !strings.Contains(r.stdout, "42") {
		t.Errorf("call: %s", r.stdout)
	}

	r = runIn(t, dir, "", "logout", "web")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "logged out of web") {
		t.Errorf("logout: %s", r.stdout)
	}
	runIn(t, dir, "", "tools").want(t, exitConnect, "mcpc login web")
	runIn(t, dir, "", "login", "nope").want(t, exitConfig, `no server "nope"`)

	// Logging in again reuses the client registered the first time: mcpc
	// listens where that client's redirect goes.
	fresh()
	runIn(t, dir, "", "login", "web").want(t, 0)
	if n := as.Registrations(); n != 1 {
		t.Errorf("two logins registered %d clients, want 1", n)
	}
	fresh()
	runIn(t, dir, "", "login", "web").want(t, 0)
	if opened != 2 {
		t.Errorf("a login with a token that works opened the browser: %d opens, want 2", opened)
	}
	fresh()
	runIn(t, dir, "", "login", "--force", "web").want(t, 0)
	if opened != 3 || as.Registrations() != 1 {
		t.Errorf("login --force: %d opens and %d registrations, want 3 and 1", opened, as.Registrations())
	}
}
