package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseBaseline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		text    string
		want    *Baseline
		wantErr string
	}{
		{
			name: "header, entries, inline reasons",
			text: "# Scenarios that do not pass yet.\n#\n# One per line.\n\n" +
				"0.1/initialize   # no HTTP transport yet\n" +
				"\n# auth\n" +
				"0.2/2026-07-28/auth/dpop\n",
			want: &Baseline{
				Header: []string{"# Scenarios that do not pass yet.", "#", "# One per line."},
				IDs:    []string{"0.1/initialize", "0.2/2026-07-28/auth/dpop"},
				Reason: map[string]string{"0.1/initialize": "no HTTP transport yet", "0.2/2026-07-28/auth/dpop": ""},
			},
		},
		{
			name: "empty file",
			text: "",
			want: &Baseline{Reason: map[string]string{}},
		},
		{
			name: "CRLF and indentation",
			text: "  0.1/sse-retry\t# timing\r\n",
			want: &Baseline{IDs: []string{"0.1/sse-retry"}, Reason: map[string]string{"0.1/sse-retry": "timing"}},
		},
		{name: "two words", text: "0.1/initialize 0.1/tools_call\n", wantErr: "line 1"},
		{name: "no suite", text: "# x\ninitialize\n", wantErr: "line 2"},
		{name: "duplicate", text: "0.1/a\n0.1/a # again\n", wantErr: "listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseBaseline(strings.NewReader(tc.text))
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
				t.Errorf("baseline (-want +got):\n%s", diff)
			}
		})
	}
}

// results builds results from "id pass" or "id fail" words.
func results(t *testing.T, words ...string) []Result {
	t.Helper()
	var out []Result
	for _, w := range words {
		id, verdict, _ := strings.Cut(w, " ")
		suite, name, _ := strings.Cut(id, "/")
		out = append(out, Result{Row: Row{Suite: suite, Name: name, Scored: true}, Pass: verdict == "pass", Reason: "why " + name})
	}
	return out
}

func baseline(t *testing.T, text string) *Baseline {
	t.Helper()
	b, err := parseBaseline(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCompare(t *testing.T) {
	known := []Row{{Suite: "0.1", Name: "a"}, {Suite: "0.1", Name: "b"}, {Suite: "0.2", Name: "c"}}
	for _, tc := range []struct {
		name     string
		results  []Result
		baseline string
		full     bool
		want     Comparison
	}{
		{
			name:     "matches",
			results:  results(t, "0.1/a pass", "0.1/b fail"),
			baseline: "0.1/b # not yet\n",
			want:     Comparison{},
		},
		{
			name:    "regression",
			results: results(t, "0.1/a fail", "0.1/b fail"),
			want:    Comparison{Regressions: []string{"0.1/a", "0.1/b"}},
		},
		{
			name:     "stale entry",
			results:  results(t, "0.1/a pass", "0.1/b pass"),
			baseline: "0.1/b\n",
			want:     Comparison{Stale: []string{"0.1/b"}},
		},
		{
			name:     "entries of rows that did not run are not judged",
			results:  results(t, "0.1/a pass"),
			baseline: "0.1/b\n0.2/c\n",
			want:     Comparison{},
		},
		{
			name:     "unknown entry on a full run",
			results:  results(t, "0.1/a pass", "0.1/b fail", "0.2/c fail"),
			baseline: "0.1/b\n0.2/c\n0.2/gone # renamed\n",
			full:     true,
			want:     Comparison{Unknown: []string{"0.2/gone"}},
		},
		{
			name:     "unknown entry on a filtered run is not judged",
			results:  results(t, "0.1/a pass"),
			baseline: "0.2/gone\n",
			want:     Comparison{},
		},
		{
			name:     "all at once",
			results:  results(t, "0.1/a fail", "0.1/b pass", "0.2/c fail"),
			baseline: "0.1/b\n0.2/c\n0.9/x\n",
			full:     true,
			want:     Comparison{Regressions: []string{"0.1/a"}, Stale: []string{"0.1/b"}, Unknown: []string{"0.9/x"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := compare(tc.results, baseline(t, tc.baseline), known, tc.full)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("comparison (-want +got):\n%s", diff)
			}
			if got.OK() != (len(tc.want.Regressions)+len(tc.want.Stale)+len(tc.want.Unknown) == 0) {
				t.Errorf("OK() = %v", got.OK())
			}
		})
	}
}

func TestUpdate(t *testing.T) {
	known := []Row{{Suite: "0.1", Name: "a"}, {Suite: "0.1", Name: "b"}, {Suite: "0.1", Name: "c"}, {Suite: "0.2", Name: "d"}}
	old := "# header\n\n0.2/d # kept reason\n0.1/b # old reason\n0.1/c\n0.9/gone\n"
	for _, tc := range []struct {
		name    string
		results []Result
		full    bool
		want    string
	}{
		{
			name:    "full run: failing listed in row order, passing and unknown dropped",
			results: results(t, "0.1/a fail", "0.1/b fail", "0.1/c pass", "0.2/d fail"),
			full:    true,
			want:    "# header\n\n0.1/a  # why a\n0.1/b  # old reason\n0.2/d  # kept reason\n",
		},
		{
			name:    "filtered run: entries of rows not run are kept",
			results: results(t, "0.1/c pass"),
			want:    "# header\n\n0.1/b     # old reason\n0.2/d     # kept reason\n0.9/gone\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sb strings.Builder
			if _, err := baseline(t, old).update(tc.results, known, tc.full).WriteTo(&sb); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, sb.String()); diff != "" {
				t.Errorf("baseline file (-want +got):\n%s", diff)
			}
			if _, err := parseBaseline(strings.NewReader(sb.String())); err != nil {
				t.Errorf("the written baseline does not parse: %v", err)
			}
		})
	}
}

func TestUpdateKeepsReasonsOnOneLine(t *testing.T) {
	r := results(t, "0.1/a fail")
	r[0].Reason = "running the suite: exit\nstatus 2"
	var sb strings.Builder
	if _, err := baseline(t, "").update(r, []Row{{Suite: "0.1", Name: "a"}}, true).WriteTo(&sb); err != nil {
		t.Fatal(err)
	}
	if got, want := sb.String(), "0.1/a  # running the suite: exit status 2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzParseBaseline(f *testing.F) {
	for _, seed := range []string{"", "# c\n0.1/a # r\n", "0.1/a\n0.1/a\n", "a b\n", "0.2/2026-07-28/x\r\n#\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := parseBaseline(strings.NewReader(text))
		if err != nil {
			return
		}
		// What parses must survive a rewrite unchanged.
		var sb strings.Builder
		if _, err := b.WriteTo(&sb); err != nil {
			t.Fatal(err)
		}
		again, err := parseBaseline(strings.NewReader(sb.String()))
		if err != nil {
			t.Fatalf("rewritten baseline does not parse: %v\n%s", err, sb.String())
		}
		if diff := cmp.Diff(b.IDs, again.IDs); diff != "" {
			t.Errorf("ids changed in a rewrite (-first +second):\n%s", diff)
		}
	})
}
