package integration

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// atTerminal runs one mcpc command as a person at a terminal would: under
// script(1), which gives it a pseudo-terminal for its standard streams
// (stdin left open, nothing typed). What it printed comes back as stdout.
func (u *authUser) atTerminal(t *testing.T, args ...string) cliRun {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("no script(1) to give mcpc a terminal")
	}
	words := []string{shellQuote(u.bin), "--config", shellQuote(filepath.Join(u.dir, ".mcp.json"))}
	for _, a := range args {
		words = append(words, shellQuote(a))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "script", "-qec", strings.Join(words, " "), os.DevNull)
	cmd.Env, cmd.Dir = u.env, u.dir
	// Killing script may leave mcpc holding the output pipe until the
	// terminal's hangup reaches it: stop waiting for the pipe soon after.
	cmd.WaitDelay = 5 * time.Second
	// An open stdin on which nothing is typed: the read end is the child's,
	// the write end is closed when the run is over.
	stdin, keep, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	defer keep.Close()
	var out bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &out
	err = cmd.Run()
	r := cliRun{stdout: out.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("mcpc %s at a terminal: %v", strings.Join(args, " "), err)
	}
	return r
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// loginPasting runs mcpc login as over SSH: the browser cannot reach the
// loopback callback, so the user pastes the address it was sent to into
// mcpc's standard input.
func (u *authUser) loginPasting(t *testing.T) cliRun {
	t.Helper()
	paste := filepath.Join(u.dir, "pasted-redirect")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, u.bin, "--config", filepath.Join(u.dir, ".mcp.json"), "login", u.name)
	cmd.Env, cmd.Dir = append(u.env[:len(u.env):len(u.env)], "PLAINMCP_BROWSER_PASTE="+paste), u.dir
	stdin, typing, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer typing.Close()
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	// The user reads the address off the other machine's browser: poll
	// for it, within the login's own bound.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if b, err := os.ReadFile(paste); err == nil {
			typing.Write(b)
			break
		}
	}
	err = cmd.Wait()
	r := cliRun{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("mcpc login pasting: %v", err)
	}
	return r
}

// lockedBuffer collects a fixture's log, written by its process while
// the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
