package main

import (
	"strings"
	"testing"
)

// TestEraCacheSparesTheProbe: a server that never answers server/discover
// costs the probe's timeout once; the next command initializes at once.
// The probe's 5 s are real (the server is a process, which no synctest
// bubble's clock can wait on), so the test runs in parallel with a few
// others that use neither leakcheck nor the process's environment.
func TestEraCacheSparesTheProbe(t *testing.T) {
	t.Parallel()
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
