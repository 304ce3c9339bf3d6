package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
)

// A server that echoes every request it gets — headers and body — in a
// 401, 403 or 500 never makes mcpc print a configured secret: not on
// stdout or stderr, not in --json, not in --trace, whatever the command.
func TestEchoedSecretsNeverPrinted(t *testing.T) {
	const token, apiKey, envKey = "tok-PLANTED-bearer", "key-PLANTED-header", "env-PLANTED-value"
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusInternalServerError} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var names []string
			for k := range r.Header {
				names = append(names, k)
			}
			sort.Strings(names)
			w.WriteHeader(status)
			for _, k := range names {
				fmt.Fprintf(w, "%s: %s\n", k, strings.Join(r.Header[k], ","))
			}
		}))
		t.Setenv("MCPC_TEST_TOKEN", token)
		for _, extra := range [][]string{{"servers"}, {"--json", "servers"}, {"--trace", "tools"}, {"--json", "--trace", "call", "x", "{}"}} {
			args := append([]string{"--url", srv.URL + "/mcp", "--header", "X-Api-Key: " + apiKey, "--bearer-env", "MCPC_TEST_TOKEN"}, extra...)
			r := runIn(t, t.TempDir(), "", args...)
			for _, s := range []string{token, apiKey} {
				if strings.Contains(r.stdout+r.stderr, s) {
					t.Errorf("%d %v: mcpc printed %q:\nstdout: %s\nstderr: %s", status, extra, s, r.stdout, r.stderr)
				}
			}
		}
		srv.Close()
	}
	// A stdio server's env value never prints either, even when the server
	// fails and its config is reported.
	r := runIn(t, t.TempDir(), "", "--stdio", "/nonexistent/server --flag", "--env", "API_KEY="+envKey, "--json", "servers")
	if strings.Contains(r.stdout+r.stderr, envKey) {
		t.Errorf("mcpc printed the env value:\n%s\n%s", r.stdout, r.stderr)
	}
}
