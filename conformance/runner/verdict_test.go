package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseChecks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		json    string
		want    []Check
		wantErr string
	}{
		{
			name: "empty array (no check ran)",
			json: `[]`,
			want: []Check{},
		},
		{
			name: "fields the runner reads, others ignored",
			json: `[
				{"id": "init", "name": "Init", "description": "sent initialize", "status": "SUCCESS",
				 "timestamp": "2026-01-01T00:00:00Z", "specReferences": [{"id": "x", "url": "y"}], "details": {"a": 1}},
				{"id": "hdr", "name": "Header", "description": "header present", "status": "FAILURE",
				 "errorMessage": "missing MCP-Protocol-Version"}
			]`,
			want: []Check{
				{ID: "init", Name: "Init", Description: "sent initialize", Status: "SUCCESS"},
				{ID: "hdr", Name: "Header", Description: "header present", Status: "FAILURE", ErrorMessage: "missing MCP-Protocol-Version"},
			},
		},
		{name: "not an array", json: `{"id": "x"}`, wantErr: "checks.json"},
		{name: "truncated", json: `[{"id": "x", "status": "SUC`, wantErr: "checks.json"},
		{name: "check without status", json: `[{"id": "x"}]`, wantErr: "has no status"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseChecks([]byte(tc.json))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("checks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCount(t *testing.T) {
	checks := []Check{
		{ID: "a", Status: "SUCCESS"}, {ID: "b", Status: "SUCCESS"}, {ID: "c", Status: "FAILURE"},
		{ID: "d", Status: "WARNING"}, {ID: "e", Status: "INFO"}, {ID: "f", Status: "SKIPPED"},
	}
	want := Counts{Success: 2, Failure: 1, Warning: 1, Other: 2}
	if got := count(checks); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestJudge(t *testing.T) {
	ok := Check{ID: "ok", Status: "SUCCESS"}
	for _, tc := range []struct {
		name   string
		checks []Check
		run    Run
		pass   bool
		reason string // joined reasons
	}{
		{name: "one success", checks: []Check{ok}, pass: true},
		{name: "success with info and skipped", checks: []Check{ok, {ID: "i", Status: "INFO"}, {ID: "s", Status: "SKIPPED"}}, pass: true},
		{name: "PASSED 0/0 is a failure", checks: nil, reason: "no check ran (PASSED 0/0)"},
		{name: "only info and skipped", checks: []Check{{ID: "s", Status: "SKIPPED"}, {ID: "i", Status: "INFO"}}, reason: "no SUCCESS, only SKIPPED,INFO"},
		{name: "a failure", checks: []Check{ok, {ID: "bad", Status: "FAILURE"}}, reason: "FAILURE bad"},
		{name: "a warning", checks: []Check{ok, {ID: "meh", Status: "WARNING"}}, reason: "WARNING meh"},
		{
			name:   "failures and warnings, ids once each",
			checks: []Check{{ID: "x", Status: "FAILURE"}, {ID: "x", Status: "FAILURE"}, {ID: "y", Status: "FAILURE"}, {ID: "w", Status: "WARNING"}},
			reason: "FAILURE x,y; WARNING w",
		},
		{name: "timed out", checks: []Check{ok}, run: Run{TimedOut: true}, reason: "client timed out"},
		{name: "client exit", checks: []Check{ok}, run: Run{ClientExit: 1, SuiteExit: 1}, reason: "client exit 1"},
		{name: "client exit allowed", checks: []Check{ok}, run: Run{ClientExit: 1, ErrorAllowed: true}, pass: true},
		{name: "allowed exit does not excuse a failure", checks: []Check{{ID: "bad", Status: "FAILURE"}}, run: Run{ClientExit: 1, ErrorAllowed: true}, reason: "FAILURE bad"},
		{name: "allowed exit does not excuse 0/0", run: Run{ClientExit: 1, ErrorAllowed: true}, reason: "no check ran (PASSED 0/0)"},
		{name: "suite says failed", checks: []Check{ok}, run: Run{SuiteExit: 1}, reason: "suite exit 1"},
		{name: "skipped by the suite", run: Run{Skipped: true}, reason: "skipped by the suite"},
		{name: "suite did not run", checks: []Check{ok}, run: Run{Err: errors.New("no checks.json")}, reason: "no checks.json"},
		{name: "failure and exit", checks: []Check{{ID: "bad", Status: "FAILURE"}}, run: Run{ClientExit: 2, SuiteExit: 1}, reason: "FAILURE bad; client exit 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pass, reasons := judge(tc.checks, tc.run)
			if got := strings.Join(reasons, "; "); pass != tc.pass || got != tc.reason {
				t.Errorf("got pass=%v %q, want pass=%v %q", pass, got, tc.pass, tc.reason)
			}
		})
	}
}
