//go:build go1.25

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/synctest"
)

// runLong runs mcpc in dir as runIn does, but under no deadline of the
// test's: the bounds under test are mcpc's own, on a synctest clock.
func runLong(t *testing.T, dir string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
	code := c.run(context.Background(), args)
	return result{code, stdout.String(), stderr.String()}
}

// TestCallOutlivesTheTimeoutWithProgress: a plain mcpc call of a tool that
// runs 70s and reports progress every 5s (if asked to) returns its result,
// with the defaults and with --timeout 60s, which only progress pushes
// back; the cap, and a tool that goes silent, end the call with an error
// that names the flag to change.
func TestCallOutlivesTheTimeoutWithProgress(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		args  string
		code  int
		out   string // on stdout, or on stderr when the call fails
	}{
		{"defaults", nil, `{"steps":14,"delayMs":5000}`, exitOK, "done after 14 steps"},
		{"a 60s timeout", []string{"--timeout", "60s"}, `{"steps":14,"delayMs":5000}`, exitOK, "done after 14 steps"},
		{"shown progress", []string{"--timeout", "60s", "--progress"}, `{"steps":14,"delayMs":5000}`, exitOK, "done after 14 steps"},
		{"the cap", []string{"--timeout", "60s", "--total-timeout", "2m"}, `{"steps":100,"delayMs":5000}`, exitFailure, "raise it with --total-timeout"},
		{"silence", []string{"--timeout", "30s"}, `{"steps":1,"delayMs":60000}`, exitFailure, "raise the bound with --timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				writeConfig(t, dir, ".mcp.json", map[string]any{"demo": demoEntry(t)})
				args := append(append([]string{}, tc.flags...), "call", "mcp__demo__slow", tc.args)
				r := runLong(t, dir, args...)
				if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.out) {
					t.Errorf("exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, tc.out, r.stdout, r.stderr)
				}
			})
		})
	}
}
