package oauth

import (
	"fmt"
	"net/http"
	"strings"
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

// A hostile server's insufficient_scope may name a scope of megabytes
// (all a response header holds): no authorization asks for it and no
// host is offered it. (union, on the way, is linear in it; this test,
// whose scope is past the bound by little, does not time that.)
func TestStepUpScopeIsBounded(t *testing.T) {
	var scope strings.Builder
	for i := 0; scope.Len() <= maxScope; i++ {
		fmt.Fprintf(&scope, "s%d ", i)
	}
	f := standard()
	f.challengeScope, f.requireScope = "mcp:basic", strings.TrimSpace(scope.String())
	newFake(t, f)
	a := f.authorizer(t, Config{})
	_, err := f.call(a)
	if err == nil || !strings.Contains(err.Error(), "asks for a scope of") {
		t.Errorf("got error %v, want one saying the scope is too long", err)
	}
	if f.issued != 1 || len(f.authQuery.Get("scope")) > maxScope {
		t.Errorf("got %d authorizations, the last for %d bytes of scope; want 1, for the challenge's mcp:basic", f.issued, len(f.authQuery.Get("scope")))
	}
	if s, ok := a.StepUpScope(); ok {
		t.Errorf("StepUpScope offers %d bytes of scope, want none", len(s))
	}
}

func TestUnionKeepsOrderAndDropsRepeats(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"", "", ""},
		{"a b", "", "a b"},
		{"", " b  a b ", "b a"},
		{"a b", "b c a d", "a b c d"},
		{"a a", "a", "a a"}, // a's own scopes are kept as they are
	} {
		if got := union(c.a, c.b); got != c.want {
			t.Errorf("union(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
