package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// suiteLog builds a suite stderr shaped like client mode's: the client's
// output echoed when it exits non-zero, then the checks and the verdict.
func suiteLog(clientOutput string, tail ...string) string {
	var b strings.Builder
	b.WriteString("Starting scenario: x\nExecuting client: c http://localhost:1\n")
	b.WriteString(clientOutput)
	b.WriteString("Checks:\n[x] SUCCESS ok\n\nTest Results:\nPassed: 1/1, 0 failed, 0 warnings\n")
	for _, line := range tail {
		b.WriteString("\n" + line + "\n")
	}
	return b.String()
}

func TestReadLog(t *testing.T) {
	for _, tc := range []struct {
		name        string
		stdout      string
		stderr      string
		want        Run
		wantVerdict bool
	}{
		{
			name:        "clean exit",
			stderr:      suiteLog("", "✅ OVERALL: PASSED"),
			wantVerdict: true,
		},
		{
			name:        "exit not allowed",
			stderr:      suiteLog("\nClient exited with code 1\n\nStderr:\nboom\n", "⚠️  CLIENT EXITED WITH ERROR (code 1) - Test may be incomplete", "❌ OVERALL: FAILED"),
			want:        Run{ClientExit: 1},
			wantVerdict: true,
		},
		{
			name:        "exit allowed by the scenario",
			stderr:      suiteLog("\nClient exited with code 3\n", "✅ OVERALL: PASSED"),
			want:        Run{ClientExit: 3, ErrorAllowed: true},
			wantVerdict: true,
		},
		{
			name:        "negative exit (spawn error)",
			stderr:      suiteLog("\nClient exited with code -1\n", "⚠️  CLIENT EXITED WITH ERROR (code -1) - Test may be incomplete", "❌ OVERALL: FAILED"),
			want:        Run{ClientExit: -1},
			wantVerdict: true,
		},
		{
			name:        "timed out",
			stderr:      suiteLog("\nClient timed out after 30000ms\n", "⚠️  CLIENT TIMED OUT - Test incomplete", "❌ OVERALL: FAILED"),
			want:        Run{TimedOut: true},
			wantVerdict: true,
		},
		{
			name: "client output mimicking the verdict is not read",
			stderr: suiteLog("\nClient exited with code 1\n\nStderr:\nTest Results:\nCLIENT TIMED OUT\n✅ OVERALL: PASSED\n",
				"⚠️  CLIENT EXITED WITH ERROR (code 1) - Test may be incomplete", "❌ OVERALL: FAILED"),
			want:        Run{ClientExit: 1},
			wantVerdict: true,
		},
		{
			name:   "crashed before the verdict",
			stderr: "Starting scenario: x\nClient exited with code 1\nTypeError: boom\n",
			want:   Run{ClientExit: 1},
		},
		{
			name:   "skipped at the requested wire",
			stdout: "SKIPPED: scenario 'initialize' is not applicable at spec version 2026-07-28 (introduced in 2025-06-18, removed in 2026-07-28). Use --force to run it anyway.\n",
			want:   Run{Skipped: true},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, verdict := readLog(tc.stdout, tc.stderr)
			if got != tc.want || verdict != tc.wantVerdict {
				t.Errorf("got %+v verdict=%v, want %+v verdict=%v", got, verdict, tc.want, tc.wantVerdict)
			}
		})
	}
}

func TestFindChecks(t *testing.T) {
	write := func(t *testing.T, dir string, files ...string) {
		t.Helper()
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(`[]`), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		files []string
		ok    bool
	}{
		{name: "one, nested as the suite names it", files: []string{"auth/metadata-default-2026-01-01T00-00-00-000Z/checks.json", "suite.log"}, ok: true},
		{name: "none", files: []string{"suite.log"}},
		{name: "two", files: []string{"a-1/checks.json", "a-2/checks.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tc.files...)
			data, err := findChecks(dir)
			if tc.ok != (err == nil) {
				t.Fatalf("got error %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && string(data) != "[]" {
				t.Errorf("got %q, want []", data)
			}
		})
	}
}

func TestExecCommand(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"bin/conformance-client", "exec bin/conformance-client"},
		{"bin/conformance-client -v", "exec bin/conformance-client -v"},
		{"exec bin/conformance-client", "exec bin/conformance-client"},
		{"DEBUG=1 bin/conformance-client", "DEBUG=1 bin/conformance-client"},
	} {
		if got := execCommand(tc.in); got != tc.want {
			t.Errorf("execCommand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
