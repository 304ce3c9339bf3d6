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
	f := parseFlags()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if f.client == "" && !f.list {
		return errors.New("-client is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	node, err := newNode(f.install)
	if err != nil {
		return err
	}
	suites, err := findSuites(f.install)
	if err != nil {
		return err
	}
	all, err := allRows(ctx, node, suites, f.spec)
	if err != nil {
		return err
	}
	rows, err := selectRows(all, f.suite, f.only)
	if err != nil {
		return err
	}
	if f.list {
		for _, r := range rows {
			fmt.Println(r.ID())
		}
		return nil
	}
	b, err := readBaseline(f.baseline)
	if err != nil {
		return err
	}
	dir, cleanup, err := resultsDir(f.keep)
	if err != nil {
		return err
	}
	defer cleanup()
	started := time.Now()
	results, err := runRows(ctx, node, suites, rows, runOptions{Client: f.client, Timeout: f.timeout, Dir: dir})
	if err != nil {
		return err
	}
	return finish(f, results, suites, b, all, len(rows) == len(all), started)
}

// flags are the runner's command line.
type flags struct {
	client, install, out, baseline, suite, only, spec, keep string
	timeout                                                 time.Duration
	list, update                                            bool
}

func parseFlags() flags {
	var f flags
	flag.StringVar(&f.client, "client", "", "the client `command` to test; the suite appends the server URL as its last argument")
	flag.StringVar(&f.install, "install", ".cache/conformance", "the `dir` where npm ci installed conformance/package.json")
	flag.StringVar(&f.out, "out", "conformance/results.json", "write the JSON summary to `file` (empty: do not)")
	flag.StringVar(&f.baseline, "baseline", "conformance/expected-failures.txt", "the baseline `file` of scenarios known to fail (empty: no comparison)")
	flag.StringVar(&f.suite, "suite", "", "run only this suite `label` (0.1 or 0.2)")
	flag.StringVar(&f.only, "only", "", "run only these comma-separated `scenarios` (a name such as tools_call, or a row id such as 0.2/2026-07-28/tools_call)")
	flag.StringVar(&f.spec, "spec", "2026-07-28", "also run this spec `revision`'s requirement set at its wire, in the suites that ship it (empty: do not)")
	flag.DurationVar(&f.timeout, "timeout", 30*time.Second, "the suite's client timeout")
	flag.StringVar(&f.keep, "keep", "", "keep each scenario's raw results (checks.json, client stdout/stderr, suite.log) under `dir`")
	flag.BoolVar(&f.list, "list", false, "list the scenarios that would run, and exit")
	flag.BoolVar(&f.update, "update-baseline", false, "rewrite the baseline to list exactly the scenarios that failed")
	flag.Parse()
	return f
}

// allRows lists the scenarios of every suite.
func allRows(ctx context.Context, node *Node, suites []Suite, spec string) ([]Row, error) {
	var all []Row
	for _, s := range suites {
		rs, err := listRows(ctx, node, s, spec)
		if err != nil {
			return nil, err
		}
		all = append(all, rs...)
	}
	return all, nil
}

// resultsDir is keep, or a temporary directory that cleanup removes.
func resultsDir(keep string) (dir string, cleanup func(), err error) {
	cleanup = func() {}
	dir = keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "conformance-"); err != nil {
			return "", nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
	}
	if dir, err = filepath.Abs(dir); err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

// runRows runs the scenarios one at a time, a line on stderr for each.
func runRows(ctx context.Context, node *Node, suites []Suite, rows []Row, opt runOptions) ([]Result, error) {
	bySuite := map[string]Suite{}
	for _, s := range suites {
		bySuite[s.Label] = s
	}
	var results []Result
	for i, row := range rows {
		if ctx.Err() != nil {
			return nil, ctx.Err()
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
	return results, nil
}

// finish prints the table, writes the JSON summary and compares the
// results with the baseline (or rewrites it, with -update-baseline).
func finish(f flags, results []Result, suites []Suite, b *Baseline, all []Row, full bool, started time.Time) error {
	gs := groups(results, suites)
	fmt.Println()
	printTable(os.Stdout, results, gs, b)
	fmt.Printf("\n%d scenarios in %v\n", len(results), time.Since(started).Round(time.Second))
	var cmp *Comparison
	if b != nil {
		c := compare(results, b, all, full)
		cmp = &c
	}
	if f.out != "" {
		if err := writeJSON(f.out, f.client, started, results, gs, b, cmp); err != nil {
			return err
		}
	}
	switch {
	case b == nil:
		return nil
	case f.update:
		return writeBaseline(f.baseline, b.update(results, all, full))
	}
	printComparison(*cmp, f.baseline)
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
