//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/procwait"
)

// TestInterruptTerminatesAStubbornServer: a server that ignores its stdin's
// end is sent SIGTERM as soon as the user interrupts mcpc, rather than left
// running after mcpc gave up waiting for it.
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
		done <- c.run(ctx, []string{"--progress", "call", "mcp__demo__slow", `{"steps":50,"delayMs":100}`})
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
