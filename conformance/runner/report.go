package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"
)

// A Result is one row's outcome.
type Result struct {
	Row
	Pass     bool
	Counts   Counts
	Reason   string        // why it failed; empty when it passed
	Run      Run           // how the processes ended
	Took     time.Duration // wall time of the suite for this row
	Problems []Check       // the checks that were not SUCCESS
}

// newResult judges one row's checks and run.
func newResult(row Row, checks []Check, run Run, took time.Duration) Result {
	pass, reasons := judge(checks, run)
	r := Result{Row: row, Pass: pass, Counts: count(checks), Reason: strings.Join(reasons, "; "), Run: run, Took: took}
	for _, c := range checks {
		if c.Status != statusSuccess {
			r.Problems = append(r.Problems, c)
		}
	}
	return r
}

// A Group is the score of one suite at one wire: "0.2", or "0.2 @2026-07-28".
type Group struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	Passed       int    `json:"passed"`
	Total        int    `json:"total"`
	ScoredPassed int    `json:"scored_passed"`
	ScoredTotal  int    `json:"scored_total"`
}

// groups sums results per suite and wire, in row order.
func groups(results []Result, suites []Suite) []Group {
	version := map[string]string{}
	for _, s := range suites {
		version[s.Label] = s.Version
	}
	var out []Group
	at := map[string]int{}
	for _, r := range results {
		name := r.Suite
		if r.Spec != "" {
			name += " @" + r.Spec
		}
		i, ok := at[name]
		if !ok {
			i = len(out)
			at[name] = i
			out = append(out, Group{Name: name, Version: version[r.Suite]})
		}
		g := &out[i]
		g.Total++
		if r.Pass {
			g.Passed++
		}
		if r.Scored {
			g.ScoredTotal++
			if r.Pass {
				g.ScoredPassed++
			}
		}
	}
	return out
}

// printTable writes the per-row table and the scores.
func printTable(w io.Writer, results []Result, gs []Group, b *Baseline) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SUITE\tSCENARIO\tRESULT\tSUCC\tFAIL\tWARN\tOTHER\tTIME\tREASON")
	for _, r := range results {
		result := "pass"
		if !r.Pass {
			result = "FAIL"
		}
		note := ""
		switch {
		case b != nil && r.Pass && b.Has(r.ID()):
			note = "STALE baseline entry"
		case b != nil && !r.Pass && !b.Has(r.ID()):
			note = "REGRESSION: " + r.Reason
		case !r.Pass:
			note = r.Reason
		}
		name := r.Scenario()
		if !r.Scored {
			name += " (not scored)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.1fs\t%s\n", r.Suite, name, result,
			r.Counts.Success, r.Counts.Failure, r.Counts.Warning, r.Counts.Other, r.Took.Seconds(), shorten(note, 90))
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, g := range gs {
		fmt.Fprintf(w, "%-16s %-16s %3d/%d pass", g.Name, g.Version, g.Passed, g.Total)
		if g.ScoredTotal != g.Total {
			fmt.Fprintf(w, " (%d/%d of the scored)", g.ScoredPassed, g.ScoredTotal)
		}
		fmt.Fprintln(w)
	}
}

// shorten cuts s to at most n runes.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// The JSON summary: a score per group, and one object per row.
type report struct {
	Client   string       `json:"client"`
	Started  time.Time    `json:"started"`
	Seconds  float64      `json:"seconds"`
	Groups   []Group      `json:"groups"`
	Rows     []reportRow  `json:"scenarios"`
	Baseline *reportCheck `json:"baseline,omitempty"`
}

type reportRow struct {
	ID         string  `json:"id"`
	Suite      string  `json:"suite"`
	Spec       string  `json:"spec_version,omitempty"`
	Scenario   string  `json:"scenario"`
	Scored     bool    `json:"scored"`
	Pass       bool    `json:"pass"`
	Counts     Counts  `json:"checks"`
	ClientExit int     `json:"client_exit"`
	TimedOut   bool    `json:"timed_out,omitempty"`
	Expected   bool    `json:"expected_failure,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	Seconds    float64 `json:"seconds"`
	Problems   []Check `json:"problems,omitempty"`
}

type reportCheck struct {
	Regressions []string `json:"regressions"`
	Stale       []string `json:"stale"`
	Unknown     []string `json:"unknown,omitempty"`
}

// writeJSON writes the summary to path.
func writeJSON(path, client string, started time.Time, results []Result, gs []Group, b *Baseline, c *Comparison) error {
	rep := report{Client: client, Started: started.UTC(), Seconds: time.Since(started).Round(time.Second).Seconds(), Groups: gs}
	for _, r := range results {
		rep.Rows = append(rep.Rows, reportRow{
			ID: r.ID(), Suite: r.Suite, Spec: r.Spec, Scenario: r.Name, Scored: r.Scored,
			Pass: r.Pass, Counts: r.Counts, ClientExit: r.Run.ClientExit, TimedOut: r.Run.TimedOut,
			Expected: b != nil && !r.Pass && b.Has(r.ID()), Reason: r.Reason,
			Seconds: r.Took.Round(100 * time.Millisecond).Seconds(), Problems: r.Problems,
		})
	}
	if c != nil {
		rep.Baseline = &reportCheck{Regressions: c.Regressions, Stale: c.Stale, Unknown: c.Unknown}
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
