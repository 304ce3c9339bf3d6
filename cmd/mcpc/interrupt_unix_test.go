//go:build unix

package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/procwait"
)

// TestInterruptTerminatesAStubbornServer: a stdio server that ignores its
// stdin's end is sent SIGTERM as soon as the user interrupts mcpc, rather
// than left running after mcpc gave up waiting for it — but only after
// it was told of the call the user gave up on: the notifications/cancelled
// went into its stdin (the trace prints a frame before it writes it, and
// "(not sent: …)" after a write that failed, as one to a closed stdin
// does).
func TestInterruptTerminatesAStubbornServer(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	writeConfig(t, dir, ".mcp.json", map[string]any{"demo": demoEntry(t, "-ignore-eof", "-pid-file", pidFile)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan struct{})
	stderr := &watchWriter{want: "progress:", seen: seen}
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: stderr}
	done := make(chan int, 1)
	go func() {
		done <- c.run(ctx, []string{"--trace", "--progress", "call", "mcp__demo__slow", `{"steps":50,"delayMs":100}`})
	}()
	select {
	case <-seen:
	case <-time.After(15 * time.Second):
		t.Fatalf("no progress reported:\n%s", stderr)
	}
	cancel()
	start := time.Now()
	if code := <-done; code != exitInterrupted {
		t.Errorf("exit code %d, want %d", code, exitInterrupted)
	}
	// Waiting the server out, mcpc would give up after interruptedCloseWait
	// and leave it running.
	if d := time.Since(start); d >= interruptedCloseWait {
		t.Errorf("mcpc took %v to exit: it waited for the server", d)
	}
	got := stderr.String()
	notice := strings.Index(got, `[demo] -> {"jsonrpc":"2.0","method":"notifications/cancelled"`)
	if notice < 0 {
		t.Errorf("the server was not told of the cancellation:\n%s", got)
	} else if strings.Contains(got[notice:], "(not sent") {
		t.Errorf("the cancellation did not reach the server's stdin:\n%s", got)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	if err := procwait.Ended(pid, time.Second); err != nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the server (pid %d) still runs after mcpc exited: %v", pid, err)
	}
}

// mcpc shuts its servers down however it is stopped: on SIGTERM and
// SIGHUP as on Ctrl-C (exiting 143 and 129), and on SIGKILL, which it
// cannot catch, by the servers' parent-death signal (Linux). The server
// ignores its stdin's end and SIGTERM; 3 seconds later it is gone.
func TestServersDieWithMcpc(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, exitTerminated}, {syscall.SIGHUP, exitHangup}, {syscall.SIGINT, exitInterrupted}, {syscall.SIGKILL, -1}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			if tc.sig == syscall.SIGKILL && runtime.GOOS != "linux" {
				t.Skip("no parent-death signal on " + runtime.GOOS)
			}
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			writeConfig(t, dir, ".mcp.json", map[string]any{"demo": demoEntry(t, "-ignore-eof", "-ignore-term", "-pid-file", pidFile)})
			mcpc := exec.Command(testBinary(t), "--progress", "call", "mcp__demo__slow", `{"steps":600,"delayMs":100}`)
			mcpc.Dir = dir
			mcpc.Env = append(os.Environ(), mcpcEnv+"=1", "GORACE=atexit_sleep_ms=0")
			stderr, err := mcpc.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := mcpc.Start(); err != nil {
				t.Fatal(err)
			}
			defer mcpc.Process.Kill()
			// The call is in flight once progress is reported.
			progress := make(chan string, 1)
			go func() {
				var seen strings.Builder
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					seen.WriteString(sc.Text() + "\n")
					if strings.Contains(sc.Text(), "progress:") {
						progress <- seen.String()
						io.Copy(io.Discard, stderr)
						return
					}
				}
				progress <- seen.String()
			}()
			if got := <-progress; !strings.Contains(got, "progress:") {
				t.Fatalf("no progress reported; stderr:\n%s", got)
			}
			data, err := os.ReadFile(pidFile)
			pid, _ := strconv.Atoi(string(data))
			if err != nil || pid == 0 {
				t.Fatalf("pid file: %q, %v", data, err)
			}
			defer syscall.Kill(pid, syscall.SIGKILL) // if the test fails
			mcpc.Process.Signal(tc.sig)
			mcpc.Wait()
			if code := mcpc.ProcessState.ExitCode(); code != tc.code {
				t.Errorf("mcpc exited %d, want %d", code, tc.code)
			}
			if err := procwait.Ended(pid, 3*time.Second); err != nil {
				t.Errorf("the server (pid %d) still runs 3 s after mcpc was sent %v: %v", pid, tc.sig, err)
			}
		})
	}
}
