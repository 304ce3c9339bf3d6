// Command runner runs the official MCP conformance suite's client scenarios
// against a client command, one scenario at a time, for every suite version
// installed side by side (see conformance/package.json). It prints a table,
// writes the same as JSON, and compares the outcome with a baseline of the
// scenarios that are known not to pass yet.
//
//	go run ./conformance/runner -client bin/conformance-client
//
// It exits 1 when a scenario outside the baseline fails (a regression) or a
// scenario in the baseline passes (a stale entry), and 2 when it cannot run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		if errors.Is(err, errMismatch) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

// errMismatch is the error of a run that does not match its baseline.
var errMismatch = errors.New("the results do not match the baseline")

func run() error {
	var (
		client   = flag.String("client", "", "the client `command` to test; the suite appends the server URL as its last argument")
		install  = flag.String("install", ".cache/conformance", "the `dir` where npm ci installed conformance/package.json")
		out      = flag.String("out", "conformance/results.json", "write the JSON summary to `file` (empty: do not)")
		baseline = flag.String("baseline", "conformance/expected-failures.txt", "the baseline `file` of scenarios known to fail (empty: no comparison)")
		suite    = flag.String("suite", "", "run only this suite `label` (0.1 or 0.2)")
		only     = flag.String("only", "", "run only these comma-separated `scenarios` (a name such as tools_call, or a row id such as 0.2/2026-07-28/tools_call)")
		spec     = flag.String("spec", "2026-07-28", "also run this spec `revision`'s requirement set at its wire, in the suites that ship it (empty: do not)")
		timeout  = flag.Duration("timeout", 30*time.Second, "the suite's client timeout")
		keep     = flag.String("keep", "", "keep each scenario's raw results (checks.json, client stdout/stderr, suite.log) under `dir`")
		list     = flag.Bool("list", false, "list the scenarios that would run, and exit")
		update   = flag.Bool("update-baseline", false, "rewrite the baseline to list exactly the scenarios that failed")
	)
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if *client == "" && !*list {
		return errors.New("-client is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	node, err := newNode(*install)
	if err != nil {
		return err
	}
	suites, err := findSuites(*install)
	if err != nil {
		return err
	}
	var all, rows []Row
	bySuite := map[string]Suite{}
	for _, s := range suites {
		bySuite[s.Label] = s
		rs, err := listRows(ctx, node, s, *spec)
		if err != nil {
			return err
		}
		all = append(all, rs...)
	}
	rows, err = selectRows(all, *suite, *only)
	if err != nil {
		return err
	}
	full := len(rows) == len(all)
	if *list {
		for _, r := range rows {
			fmt.Println(r.ID())
		}
		return nil
	}

	var b *Baseline
	if *baseline != "" {
		f, err := os.Open(*baseline)
		if err != nil {
			return err
		}
		b, err = parseBaseline(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *baseline, err)
		}
	}

	dir := *keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "conformance-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	opt := runOptions{Client: *client, Timeout: *timeout, Dir: dir}

	started := time.Now()
	var results []Result
	for i, row := range rows {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		t := time.Now()
		checks, r := runRow(ctx, node, bySuite[row.Suite], row, opt)
		res := newResult(row, checks, r, time.Since(t))
		results = append(results, res)
		verdict := "pass"
		if !res.Pass {
			verdict = "FAIL  " + shorten(res.Reason, 100)
		}
		fmt.Fprintf(os.Stderr, "[%d/%d] %s  %.1fs  %s\n", i+1, len(rows), row.ID(), res.Took.Seconds(), verdict)
	}

	gs := groups(results, suites)
	fmt.Println()
	printTable(os.Stdout, results, gs, b)
	fmt.Printf("\n%d scenarios in %v\n", len(results), time.Since(started).Round(time.Second))

	var cmp *Comparison
	if b != nil {
		c := compare(results, b, all, full)
		cmp = &c
	}
	if *out != "" {
		if err := writeJSON(*out, *client, started, results, gs, b, cmp); err != nil {
			return err
		}
	}
	if b == nil {
		return nil
	}
	if *update {
		return writeBaseline(*baseline, b.update(results, all, full))
	}
	printComparison(*cmp, *baseline)
	if !cmp.OK() {
		return errMismatch
	}
	return nil
}

// selectRows keeps the rows of a suite label and of the named scenarios,
// each either a suite's scenario name or a row id. Every name must match.
func selectRows(rows []Row, suite, only string) ([]Row, error) {
	names := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names[n] = false
		}
	}
	var out []Row
	for _, r := range rows {
		if suite != "" && r.Suite != suite {
			continue
		}
		if len(names) > 0 {
			matched := false
			for _, key := range []string{r.Name, r.Scenario(), r.ID()} {
				if _, ok := names[key]; ok {
					names[key], matched = true, true
				}
			}
			if !matched {
				continue
			}
		}
		out = append(out, r)
	}
	for n, matched := range names {
		if !matched {
			return nil, fmt.Errorf("-only %s: no such scenario (see -list)", n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-suite %s: no such suite", suite)
	}
	return out, nil
}

// printComparison says how the run differs from the baseline.
func printComparison(c Comparison, path string) {
	if c.OK() {
		fmt.Printf("baseline %s: matches\n", path)
		return
	}
	for _, id := range c.Regressions {
		fmt.Printf("REGRESSION  %s fails and is not in %s\n", id, path)
	}
	for _, id := range c.Stale {
		fmt.Printf("STALE       %s passes: remove it from %s\n", id, path)
	}
	for _, id := range c.Unknown {
		fmt.Printf("UNKNOWN     %s in %s names no scenario of the installed suites\n", id, path)
	}
}

// writeBaseline replaces the baseline file.
func writeBaseline(path string, b *Baseline) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := b.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("baseline %s: rewritten, %d entries\n", path, len(b.IDs))
	return nil
}
