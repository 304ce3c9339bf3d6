package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// mcpc call runs a tool that runs only as a task, in either era, and
// --progress shows the task's status like progress (as JSON with --json).
func TestCallTaskToolBothEras(t *testing.T) {
	t.Parallel() // beside the era cache test, which waits out a probe
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{
		"handshake": demoEntry(t),
		"stateless": demoEntry(t, "-stateless"),
	})
	for _, server := range []string{"handshake", "stateless"} {
		r := runIn(t, dir, "", "--progress", "call", "mcp__"+server+"__research", `{"topic": "pipes", "steps": 2, "delayMs": 5}`)
		r.want(t, exitOK)
		if !strings.Contains(r.stdout, "report on pipes (broad reading) after 2 steps") {
			t.Errorf("%s: stdout %q", server, r.stdout)
		}
		if !strings.Contains(r.stderr, "task task-1: working") || !strings.Contains(r.stderr, "task task-1: completed") {
			t.Errorf("%s: stderr %q, want the task's status lines", server, r.stderr)
		}
		j := runIn(t, dir, "", "--json", "--progress", "call", "mcp__"+server+"__research", `{"topic": "x", "steps": 1, "delayMs": 1}`)
		j.want(t, exitOK)
		for _, l := range strings.Split(strings.TrimSpace(j.stderr), "\n") {
			var ev struct {
				Task *struct{ TaskID, Status string } `json:"task"`
			}
			if err := json.Unmarshal([]byte(l), &ev); err != nil || ev.Task == nil || ev.Task.TaskID == "" {
				t.Errorf("%s: not a task event: %q (%v)", server, l, err)
			}
		}
		f := runIn(t, dir, "", "call", "mcp__"+server+"__research", `{"topic": "x", "steps": 1, "delayMs": 1, "fail": true}`)
		f.want(t, exitToolError, "research failed: the sources did not answer")
	}
}
