package oauth

import (
	"net/http"
	"testing"
)

func TestStepUpAsksForTheUnion(t *testing.T) {
	f := standard()
	f.challengeScope, f.requireScope = "mcp:basic", "mcp:write"
	newFake(t, f)
	resp, err := f.call(f.authorizer(t, Config{}))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("got %v %v, want 200", resp, err)
	}
	if got := f.authQuery.Get("scope"); got != "mcp:basic mcp:write" {
		t.Errorf("step-up scope: got %q, want the union %q", got, "mcp:basic mcp:write")
	}
	if f.issued != 2 || f.registered != 1 {
		t.Errorf("got %d tokens after %d registrations, want 2 after 1", f.issued, f.registered)
	}
}

func TestStepUpGivesUp(t *testing.T) {
	f := standard()
	f.challengeScope, f.requireScope, f.grantNoScope = "mcp:basic", "mcp:write", true
	newFake(t, f)
	a := f.authorizer(t, Config{})
	for range 2 {
		resp, err := f.call(a)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("got status %d, want 403", resp.StatusCode)
		}
	}
	// The first call: one authorization for its 401 and one step-up for
	// its 403; the second: one step-up. Each request spends at most one.
	if f.issued != 3 {
		t.Errorf("got %d authorizations, want 3", f.issued)
	}
}
