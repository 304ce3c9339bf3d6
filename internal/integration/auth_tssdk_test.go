package integration

import (
	"strings"
	"testing"
)

// TestIntegrationAuthTSSDK runs mcpc against an MCP server protected by the
// official TypeScript SDK: its mcpAuthRouter over its demo in-memory
// provider, and requireBearerAuth in front of the MCP endpoint
// (authnpm/tssdk.mjs). The demo provider approves at once and issues no
// refresh token, so what is tested is the login itself, the tokens' reuse
// by later runs, registrations, and what a user is told when the token
// dies.
func TestIntegrationAuthTSSDK(t *testing.T) {
	k := newAuthKit(t)

	t.Run("login tools call", func(t *testing.T) {
		srv := k.start(t, "tssdk.mjs")
		u := k.user(t, srv, "ts")
		if !u.login(t) {
			return
		}
		u.ok(t, "mcp__ts__echo", "tools")
		u.call(t, "echo", `{"text":"hi"}`, "echo: hi")
		u.call(t, "whoami", `{}`, "scopes=mcp:tools")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	t.Run("slow user", func(t *testing.T) {
		srv := k.start(t, "tssdk.mjs")
		u := k.user(t, srv, "ts", "PLAINMCP_BROWSER_DELAY=20s")
		if !u.login(t) {
			return
		}
		u.call(t, "echo", `{"text":"late"}`, "echo: late")
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	// Runs without a token (tools, servers) say to log in, and register no
	// client: the registration waits for a user to authorize it.
	t.Run("commands before login", func(t *testing.T) {
		srv := k.start(t, "tssdk.mjs")
		u := k.user(t, srv, "ts")
		for _, cmd := range []string{"tools", "servers"} {
			r := u.mcpc(t, cmd)
			if !strings.Contains(r.stdout+r.stderr, "mcpc login") {
				t.Errorf("mcpc %s before login: exit %d, no word of mcpc login\nstdout: %s\nstderr: %s", cmd, r.code, r.stdout, r.stderr)
			}
		}
		u.wantFlows(t, 0)
		wantRegistrations(t, srv, 0)
		if u.login(t) {
			u.call(t, "echo", `{"text":"now"}`, "echo: now")
		}
		u.wantFlows(t, 1)
		wantRegistrations(t, srv, 1)
	})

	// A token the server forgets (revoked) or lets expire, with no refresh
	// token to fall back on, ends in a clear word to log in again: no
	// browser opened by a call, no new registration.
	for _, how := range []string{"revoke", "expire"} {
		t.Run(how, func(t *testing.T) {
			srv := k.start(t, "tssdk.mjs")
			u := k.user(t, srv, "ts")
			if !u.login(t) || !u.call(t, "echo", `{"text":"before"}`, "echo: before") {
				return
			}
			srv.control(t, how)
			r := u.mcpc(t, "call", "mcp__ts__echo", `{"text":"after"}`)
			if r.code != 4 || !strings.Contains(r.stderr, "mcpc login") { // 4: needs a login
				t.Errorf("call after %s: exit %d, want 4 and a word of mcpc login\nstdout: %s\nstderr: %s", how, r.code, r.stdout, r.stderr)
			}
			t.Logf("after %s: %s", how, r.stderr)
			u.wantFlows(t, 1)
			wantRegistrations(t, srv, 1)
			if u.login(t) {
				u.call(t, "echo", `{"text":"again"}`, "echo: again")
			}
			u.wantFlows(t, 2)
		})
	}
}
