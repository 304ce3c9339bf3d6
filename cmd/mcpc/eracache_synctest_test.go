//go:build go1.25

package main

import (
	"strings"
	"testing"
	"testing/synctest"
)

// TestEraCacheSparesTheProbe: a server that never answers server/discover
// costs the probe's timeout once; the next command initializes at once.
// The server runs in process, so the probe's 5 s pass on synctest's clock.
func TestEraCacheSparesTheProbe(t *testing.T) {
	synctest.Test(t, testEraCacheSparesTheProbe)
}

func testEraCacheSparesTheProbe(t *testing.T) {
	dir := t.TempDir()
	// The cache outlives a run of the test (-count=5): the server's args
	// name this run's directory, so that each run's server is new to it.
	writeConfig(t, dir, ".mcp.json", map[string]any{"deaf": demoEntry(t, "-ignore-discover", "-instructions", dir)})
	first := runIn(t, dir, "", "--trace", "tools")
	first.want(t, exitOK)
	if !strings.Contains(first.stderr, `"method":"server/discover"`) {
		t.Fatalf("the first run did not probe:\n%s", first.stderr)
	}
	second := runIn(t, dir, "", "--trace", "tools")
	second.want(t, exitOK)
	if strings.Contains(second.stderr, `"server/discover"`) {
		t.Errorf("the second run probed again:\n%s", second.stderr)
	}
	if !strings.Contains(second.stderr, `"method":"initialize"`) || second.stdout != first.stdout {
		t.Errorf("the second run did not list the same tools after initialize:\n%s\n%s", second.stdout, second.stderr)
	}
}
