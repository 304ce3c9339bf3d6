//go:build unix

package transport

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/procwait"
)

// waitGone fails the test unless process pid is gone within d. A zombie
// counts as gone: it has stopped running, and reaping it is its parent's job
// (for an orphan, init's).
func waitGone(t *testing.T, pid int, d time.Duration) {
	t.Helper()
	if err := procwait.Ended(pid, d); err != nil {
		t.Errorf("process %d still running %v later: %v", pid, d, err)
	}
}

func TestStdioCloseEscalatesToKill(t *testing.T) {
	checkLeaks(t)
	const delay = 200 * time.Millisecond
	s := startFake(t, "stubborn", StdioConfig{CloseDelay: delay})
	if _, err := readWithin(t, s, 5*time.Second); err != nil {
		t.Fatalf("Read: %v", err)
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	// Both waits must have run out (the server ignores stdin's end and
	// SIGTERM), and the kill must have been quick.
	if took := time.Since(start); took < 2*delay || took > 2*delay+killWait+exitGrace+500*time.Millisecond {
		t.Errorf("Close took %v, want about %v", took, 2*delay)
	}
	waitGone(t, s.Pid(), time.Second)
	if _, err := s.Read(); err == nil {
		t.Error("Read after Close: got no error")
	}
}

func TestStdioCloseStopsPoliteServerQuickly(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "echo", StdioConfig{CloseDelay: 5 * time.Second})
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	// The echo server exits when its stdin ends: no signal is needed.
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Close took %v, want well under the 5s CloseDelay", took)
	}
}

func TestStdioGrandchildHoldingStdout(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "grandchild", StdioConfig{})
	frame, err := readWithin(t, s, 5*time.Second)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	var msg struct{ Grandchild int }
	if err := json.Unmarshal(frame, &msg); err != nil || msg.Grandchild == 0 {
		t.Fatalf("got %s, want the grandchild's pid (%v)", frame, err)
	}
	// The server exited; its child holds stdout open. Read must not wait
	// for that child.
	_, err = readWithin(t, s, 2*time.Second)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 5 {
		t.Errorf("Read: got %v, want an *ExitError with status 5", err)
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if took := time.Since(start); took > 2*200*time.Millisecond+killWait {
		t.Errorf("Close took %v", took)
	}
	waitGone(t, msg.Grandchild, time.Second)
}

func TestStdioKilledBySignal(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "die", StdioConfig{})
	_, err := readWithin(t, s, 5*time.Second)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Signal != int(syscall.SIGKILL) || exit.Code != -1 {
		t.Fatalf("Read: got %v, want an *ExitError for SIGKILL", err)
	}
	if !strings.Contains(err.Error(), "signal 9") {
		t.Errorf("error %q does not name the signal", err)
	}
}

// TestStdioTerminateHurries: a server that ignores its stdin's end is
// sent SIGTERM at once, not after CloseDelay (a minute here).
func TestStdioTerminateHurries(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "sleep", StdioConfig{CloseDelay: time.Minute})
	done := make(chan error, 1)
	go func() { done <- s.Terminate() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Terminate: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Terminate waited for the server as Close does")
	}
	waitGone(t, s.Pid(), time.Second)
	if err := s.Close(); err != nil {
		t.Errorf("Close after Terminate: %v", err)
	}
}

// TestStdioHurryKeepsTheStreamOpen: after Hurry the stream still carries
// frames (a host's last notices), and the Close that follows is
// Terminate's, with no CloseDelay (a minute here) for a server that
// ignores its stdin's end.
func TestStdioHurryKeepsTheStreamOpen(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "sleep", StdioConfig{CloseDelay: time.Minute})
	s.Hurry()
	if err := s.Write(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)); err != nil {
		t.Fatalf("Write after Hurry: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Close after Hurry waited for the server as a plain Close does")
	}
	waitGone(t, s.Pid(), time.Second)
}
