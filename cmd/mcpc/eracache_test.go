package main

import (
	"strings"
	"testing"
)

// TestEraCacheKeepsAnsweringServersProbing: a server that answers the
// probe (here, that it does not know the method) is never pinned.
func TestEraCacheKeepsAnsweringServersProbing(t *testing.T) {
	dir := demoDir(t)
	runIn(t, dir, "", "--server", "demo", "tools").want(t, exitOK)
	r := runIn(t, dir, "", "--trace", "--server", "demo", "tools")
	if !strings.Contains(r.stderr, `"method":"server/discover"`) {
		t.Errorf("an answering server was pinned:\n%s", r.stderr)
	}
}
