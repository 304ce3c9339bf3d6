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

// TestEraCacheLetsTheServerNegotiateDown: a remembered server that speaks
// only 2025-06-18 and never answers the probe works on every run, not
// every second one: the cache remembers the era, not a version, so the
// server answers initialize with its own version and the client takes it.
func TestEraCacheLetsTheServerNegotiateDown(t *testing.T) {
	synctest.Test(t, testEraCacheLetsTheServerNegotiateDown)
}

func testEraCacheLetsTheServerNegotiateDown(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{"old": demoEntry(t, "-ignore-discover", "-speaks", "2025-06-18", "-instructions", dir)})
	for run := 1; run <= 4; run++ {
		r := runIn(t, dir, "", "--trace", "call", "mcp__old__echo", `{"text":"hi"}`)
		if r.code != exitOK {
			t.Fatalf("run %d: exit %d:\n%s", run, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "hi") || !strings.Contains(r.stderr, `"protocolVersion":"2025-06-18"`) {
			t.Errorf("run %d: not the echo of a 2025-06-18 server:\n%s\n%s", run, r.stdout, r.stderr)
		}
		if probed := strings.Contains(r.stderr, `"server/discover"`); probed != (run == 1) {
			t.Errorf("run %d: probed %v, want %v", run, probed, run == 1)
		}
	}
}
