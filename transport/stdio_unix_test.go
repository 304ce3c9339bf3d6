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

// TestStdioShutdownWithADoneContext: Shutdown with a context already done
// does not wait CloseDelay (a minute here) for a server that ignores its
// stdin's end: it sends SIGTERM at once, and SIGKILL after hurriedGrace
// to a server that ignores SIGTERM too. The exit's signal says which
// stopped it.
func TestStdioShutdownWithADoneContext(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want syscall.Signal
	}{{"sleep", syscall.SIGTERM}, {"stubborn", syscall.SIGKILL}} {
		t.Run(tc.mode, func(t *testing.T) {
			checkLeaks(t)
			s := startFake(t, tc.mode, StdioConfig{CloseDelay: time.Minute})
			if tc.mode == "stubborn" { // ignoring SIGTERM once it says it is ready
				if _, err := readWithin(t, s, 5*time.Second); err != nil {
					t.Fatalf("Read: %v", err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := within(t, 30*time.Second, func() error { return s.Shutdown(ctx) }); err != nil {
				t.Errorf("Shutdown: %v", err)
			}
			if got := syscall.Signal(s.exitErr.Signal); got != tc.want {
				t.Errorf("the server ended by %v, want %v", got, tc.want)
			}
			if err := s.Close(); err != nil {
				t.Errorf("Close after Shutdown: %v", err)
			}
		})
	}
}

// TestStdioShutdownWaitsForTheServer: with a context that does not end,
// Shutdown is Close: the server, which exits when its stdin ends, is
// given the time to, and is sent no signal.
func TestStdioShutdownWaitsForTheServer(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "echo", StdioConfig{CloseDelay: time.Minute})
	if err := within(t, 30*time.Second, func() error { return s.Shutdown(context.Background()) }); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if s.exitErr.Signal != 0 || s.exitErr.Code != 0 {
		t.Errorf("the server ended with %v, want a clean exit", s.exitErr)
	}
}

// TestStdioShutdownHurriesAWaitingClose: a Close waiting CloseDelay (a
// minute) for a server that ignores its stdin's end stops waiting when a
// Shutdown's context ends: the server is sent SIGTERM, both return, and
// with the same result.
func TestStdioShutdownHurriesAWaitingClose(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "sleep", StdioConfig{CloseDelay: time.Minute})
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	<-s.closing // Close is under way: stdin closed, waiting for the exit
	ctx, cancel := context.WithCancel(context.Background())
	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(ctx) }()
	cancel()
	for name, c := range map[string]chan error{"Close": closed, "Shutdown": shut} {
		if err := within(t, 30*time.Second, func() error { return <-c }); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if got := syscall.Signal(s.exitErr.Signal); got != syscall.SIGTERM {
		t.Errorf("the server ended by %v, want SIGTERM", got)
	}
}

// within returns f's result, failing the test if f takes longer than d:
// a bound far beyond what f needs, not a timing to assert.
func within(t *testing.T, d time.Duration, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("still waiting after %v", d)
		return nil
	}
}
