package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// runOptions are the settings shared by every scenario run.
type runOptions struct {
	Client  string        // the client command; the suite appends the server URL
	Timeout time.Duration // the suite's client timeout
	Dir     string        // where each run's results directory goes
}

// runRow runs one scenario through the suite's client mode, alone, and returns
// its checks and how the processes ended. The suite writes checks.json,
// stdout.txt and stderr.txt (the client's) under dir; runRow adds suite.log.
func runRow(ctx context.Context, n *Node, s Suite, row Row, opt runOptions) ([]Check, Run) {
	dir := filepath.Join(opt.Dir, row.Suite, filepath.FromSlash(row.Scenario()))
	if err := os.RemoveAll(dir); err != nil {
		return nil, Run{Err: err}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, Run{Err: err}
	}
	args := suiteArgs(row, opt, dir)
	// The suite ends the client at its own timeout; this bound is for a suite
	// that hangs, and leaves it room to start and stop its mock servers.
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout+2*time.Minute)
	defer cancel()
	cmd := n.command(ctx, s, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second // a client left behind must not hold us on its pipes
	ownGroup(cmd)
	err := cmd.Run()
	endGroup(cmd)
	log := "$ conformance " + strings.Join(args, " ") + "\n" + stdout.String() + stderr.String()
	_ = os.WriteFile(filepath.Join(dir, "suite.log"), []byte(log), 0o644)

	if ctx.Err() != nil {
		return nil, Run{Err: fmt.Errorf("the suite did not finish: %w", ctx.Err())}
	}
	run, verdict := readLog(stdout.String(), stderr.String())
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		run.SuiteExit = exit.ExitCode()
	case err != nil:
		return nil, Run{Err: fmt.Errorf("running the suite: %w", err)}
	}
	if run.Skipped {
		return nil, run
	}
	data, err := findChecks(dir)
	if err == nil && !verdict {
		err = errors.New("the suite printed no verdict")
	}
	if err != nil {
		run.Err = err
		return nil, run
	}
	checks, err := parseChecks(data)
	if err != nil {
		run.Err = err
	}
	return checks, run
}

// suiteArgs is the suite's command line for one row.
func suiteArgs(row Row, opt runOptions, dir string) []string {
	args := []string{"client",
		"--command", execCommand(opt.Client),
		"--scenario", row.Name,
		"--timeout", strconv.FormatInt(opt.Timeout.Milliseconds(), 10),
		"--output-dir", dir,
	}
	if row.Spec != "" {
		// What `client --requirements REV` does for each scenario of the set,
		// one at a time instead of all at once: run it at REV's wire, even
		// where the scenario's own window would not (--force).
		args = append(args, "--spec-version", row.Spec, "--force")
	}
	return args
}

// execCommand makes the shell run the client in its own place. The suite
// starts the client as `/bin/sh -c "<command> <url>"` and, at its timeout,
// signals that shell only; a client forked by the shell would go on running,
// holding the suite until it exits by itself. With exec, the signal reaches
// the client. (A command that starts with a variable assignment, or with
// exec already, is left alone.)
func execCommand(client string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(client), " ")
	if first == "exec" || strings.Contains(first, "=") {
		return client
	}
	return "exec " + client
}

// findChecks returns the one checks.json the suite wrote under dir (in a
// "<scenario>-<time>" directory of its own naming).
func findChecks(dir string) ([]byte, error) {
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "checks.json" {
			found = append(found, path)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(found) != 1 {
		return nil, fmt.Errorf("the suite left %d checks.json files, want 1", len(found))
	}
	return os.ReadFile(found[0])
}

// What the suite's client mode prints, identical in 0.1.16 and 0.2.0-alpha.12
// (src/runner/client.ts). checks.json holds the checks only; the client's
// exit, its timeout and whether the scenario allows a client error are known
// from these lines. The client's own output is echoed between "Client exited
// with code" and "Test Results:", so the verdict markers are read after the
// last "Test Results:" only.
var (
	exitLine      = regexp.MustCompile(`(?m)^Client exited with code (-?\d+)$`)
	resultsTitle  = "\nTest Results:\n"
	timedOutMark  = "CLIENT TIMED OUT"
	exitErrorMark = "CLIENT EXITED WITH ERROR"
	overallMark   = "OVERALL: "
	skippedMark   = "SKIPPED: scenario "
)

// readLog reads how the client ended from the suite's output, and whether
// the suite got as far as its verdict.
func readLog(stdout, stderr string) (run Run, verdict bool) {
	if strings.HasPrefix(stdout, skippedMark) || strings.Contains(stdout, "\n"+skippedMark) {
		run.Skipped = true
		return run, false
	}
	if m := exitLine.FindStringSubmatch(stderr); m != nil {
		run.ClientExit, _ = strconv.Atoi(m[1])
	}
	i := strings.LastIndex(stderr, resultsTitle)
	if i < 0 {
		return run, false
	}
	tail := stderr[i:]
	verdict = strings.Contains(tail, overallMark)
	run.TimedOut = strings.Contains(tail, timedOutMark)
	run.ErrorAllowed = verdict && run.ClientExit != 0 && !run.TimedOut && !strings.Contains(tail, exitErrorMark)
	return run, verdict
}
