package integration

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestIntegrationAuthOIDC runs mcpc against oidc-provider, a certified
// OpenID provider, in front of a resource server that validates its JWT
// access tokens (authnpm/oidc.mjs): the login pages are the provider's,
// filled in by the scripted browser, refresh tokens come with
// offline_access and rotate, and DPoP is switched on or off at the
// provider and at the resource server separately.
func TestIntegrationAuthOIDC(t *testing.T) {
	k := newAuthKit(t)
	bearer := []string{"OIDC_DPOP=0", "RS_MODE=bearer"}
	// The scenarios of expiry wait for a real token to expire: ttl is longer
	// than the client's margin for refreshing early (30 s), so the token is
	// used as it is first and refreshed when it has expired; they run in
	// parallel, as they mostly wait.
	const ttl = 40 * time.Second
	ttlEnv := fmt.Sprintf("ACCESS_TTL=%d", int(ttl.Seconds()))
	afterExpiry := func(issued time.Time) { time.Sleep(time.Until(issued.Add(ttl + 3*time.Second))) }

	t.Run("login tools call", func(t *testing.T) {
		srv := k.start(t, "oidc.mjs", bearer...)
		u := k.user(t, srv, "oidc")
		if !u.login(t) {
			return
		}
		u.ok(t, "mcp__oidc__echo", "tools")
		u.call(t, "echo", `{"text":"hi"}`, "echo: hi")
		u.call(t, "whoami", `{}`, "subject=alice")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	// A second login with a working token keeps it; logout revokes the
	// grant at the provider, after which a call says to log in.
	t.Run("login again logout", func(t *testing.T) {
		srv := k.start(t, "oidc.mjs", bearer...)
		u := k.user(t, srv, "oidc")
		if !u.login(t) {
			return
		}
		if r := u.mcpc(t, "login", "oidc"); r.code != 0 {
			t.Errorf("a second login: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
		u.wantFlows(t, 1)
		u.ok(t, "", "logout", "oidc")
		if st := srv.stats(t); st.RevokedGrants == 0 {
			t.Errorf("logout revoked nothing at the provider: %+v", st)
		}
		r := u.mcpc(t, "call", "mcp__oidc__echo", `{"text":"gone"}`)
		if r.code != 4 || !strings.Contains(r.stderr, "mcpc login") { // 4: needs a login
			t.Errorf("call after logout: exit %d, want 4 and a word of mcpc login\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	// A forced login goes to the browser again, as the usage writes it,
	// and reuses the client registered by the first.
	t.Run("forced login", func(t *testing.T) {
		srv := k.start(t, "oidc.mjs", bearer...)
		u := k.user(t, srv, "oidc")
		if !u.login(t) {
			return
		}
		u.ok(t, "logged in", "login", "--force", "oidc")
		u.call(t, "echo", `{"text":"forced"}`, "echo: forced")
		u.wantFlows(t, 2)
		wantRegistrations(t, srv, 1)
	})

	// The browser runs on another machine (SSH): it cannot reach mcpc's
	// loopback, and the user pastes the redirect's address into mcpc.
	t.Run("pasted redirect", func(t *testing.T) {
		srv := k.start(t, "oidc.mjs", bearer...)
		u := k.user(t, srv, "oidc")
		if r := u.loginPasting(t); r.code != 0 || !strings.Contains(r.stdout, "logged in") {
			t.Errorf("mcpc login with the redirect pasted: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
		u.call(t, "echo", `{"text":"pasted"}`, "echo: pasted")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	t.Run("slow user", func(t *testing.T) {
		srv := k.start(t, "oidc.mjs", bearer...)
		u := k.user(t, srv, "oidc", "PLAINMCP_BROWSER_DELAY=20s")
		u.login(t)
		u.call(t, "echo", `{"text":"late"}`, "echo: late")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	// The provider offers DPoP but the resource server knows only Bearer
	// (as the TypeScript SDK's requireBearerAuth does): the client must not
	// bind the token to a key the resource server cannot check.
	t.Run("dpop provider bearer resource", func(t *testing.T) {
		srv := k.start(t, "oidc.mjs", "OIDC_DPOP=1", "RS_MODE=bearer")
		u := k.user(t, srv, "oidc")
		u.login(t)
		u.call(t, "echo", `{"text":"one"}`, "echo: one")
		u.call(t, "echo", `{"text":"two"}`, "echo: two")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	// Both sides speak DPoP: the token is bound to a key, and every later
	// run (a call, and a refresh after expiry) must prove the same key.
	t.Run("dpop across runs", func(t *testing.T) {
		t.Parallel()
		srv := k.start(t, "oidc.mjs", "OIDC_DPOP=1", "RS_MODE=dpop", ttlEnv)
		u := k.user(t, srv, "oidc")
		u.login(t)
		loggedIn := time.Now() // the token was issued before this
		u.call(t, "echo", `{"text":"run two"}`, "echo: run two")
		afterExpiry(loggedIn)
		u.call(t, "echo", `{"text":"after expiry"}`, "echo: after expiry")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
		if st := srv.stats(t); st.RefreshGrants == 0 {
			t.Errorf("no refresh at the provider after expiry: %+v", st)
		}
	})

	t.Run("expiry refresh in a later run", func(t *testing.T) {
		t.Parallel()
		srv := k.start(t, "oidc.mjs", append(bearer, ttlEnv)...)
		u := k.user(t, srv, "oidc")
		u.login(t)
		loggedIn := time.Now() // the token was issued before this
		u.call(t, "echo", `{"text":"fresh"}`, "echo: fresh")
		afterExpiry(loggedIn)
		u.call(t, "echo", `{"text":"refreshed"}`, "echo: refreshed")
		u.call(t, "echo", `{"text":"again"}`, "echo: again")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
		if st := srv.stats(t); st.RefreshGrants == 0 {
			t.Errorf("no refresh at the provider after expiry: %+v", st)
		}
	})

	// Two processes find the token expired at once; the provider rotates
	// refresh tokens and revokes the grant when one is used twice.
	t.Run("concurrent calls at expiry", func(t *testing.T) {
		t.Parallel()
		srv := k.start(t, "oidc.mjs", append(bearer, ttlEnv)...)
		u := k.user(t, srv, "oidc")
		u.login(t)
		loggedIn := time.Now() // the token was issued before this
		u.call(t, "echo", `{"text":"fresh"}`, "echo: fresh")
		afterExpiry(loggedIn)
		var wg sync.WaitGroup
		for _, text := range []string{"left", "right"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				u.call(t, "echo", `{"text":"`+text+`"}`, "echo: "+text)
			}()
		}
		wg.Wait()
		u.call(t, "echo", `{"text":"after"}`, "echo: after")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
		if st := srv.stats(t); st.RevokedGrants != 0 {
			t.Errorf("the provider revoked the grant: %+v", st)
		}
	})

	// The user (or an administrator) revokes the grant: once the access
	// token has expired, the refresh fails and mcpc says to log in again —
	// without opening a browser on its own.
	t.Run("revocation", func(t *testing.T) {
		t.Parallel()
		srv := k.start(t, "oidc.mjs", append(bearer, ttlEnv)...)
		u := k.user(t, srv, "oidc")
		u.login(t)
		loggedIn := time.Now() // the token was issued before this
		srv.control(t, "revoke")
		afterExpiry(loggedIn)
		r := u.mcpc(t, "call", "mcp__oidc__echo", `{"text":"revoked"}`)
		if r.code != 4 || !strings.Contains(r.stderr, "mcpc login") {
			t.Errorf("call after revocation: exit %d, want 4 and a word of mcpc login\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
		t.Logf("after revocation: %s", r.stderr)
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	// A tool needs a scope the token lacks: the resource server answers
	// 403 insufficient_scope naming it. Without a person at a terminal mcpc
	// says how to log in for it; at a terminal it re-authorizes with the
	// larger scope (one more browser flow, asking for mcp:admin); later
	// runs use the larger token without asking again.
	t.Run("step-up", func(t *testing.T) {
		srv := k.start(t, "oidc.mjs", bearer...)
		u := k.user(t, srv, "oidc")
		u.login(t)
		r := u.mcpc(t, "call", "mcp__oidc__admin", "{}")
		if r.code != 4 || !strings.Contains(r.stderr, "mcpc login --scope") {
			t.Errorf("admin without a terminal: exit %d, want 4 and a word of mcpc login --scope\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
		t.Logf("admin without a terminal: %s", r.stderr)
		u.wantFlows(t, 1)
		r = u.atTerminal(t, "call", "mcp__oidc__admin", "{}")
		if r.code != 0 || !strings.Contains(r.stdout, "admin: granted") {
			t.Errorf("admin at a terminal: exit %d, want 0 and the tool's answer\n%s", r.code, r.stdout)
		}
		u.call(t, "admin", `{}`, "admin: granted")
		u.call(t, "echo", `{"text":"still"}`, "echo: still")
		u.wantFlows(t, 2)
		if flows := u.browserFlows(t); len(flows) == 2 && !strings.Contains(flows[1], "mcp%3Aadmin") {
			t.Errorf("the step-up did not ask for mcp:admin: %s", flows[1])
		}
		wantRegistrations(t, srv, 1)
	})
}
