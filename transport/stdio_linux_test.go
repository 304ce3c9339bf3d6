package transport

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/childproc"
)

// A server dies with its host however the host dies: after SIGKILL,
// SIGTERM or SIGHUP of a Go host using Stdio mid-call, the server it
// started — one that ignores its stdin's end and SIGTERM — is gone
// within 3 seconds (the parent-death signal; before it, it ran on).
func TestServerDiesWithItsHost(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			host := exec.Command(exe)
			host.Env = append(os.Environ(), helperEnv+"=host", "GORACE=atexit_sleep_ms=0")
			host.Stderr = os.Stderr
			stdout, err := host.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := host.Start(); err != nil {
				t.Fatal(err)
			}
			defer host.Process.Kill()
			line, err := bufio.NewReader(stdout).ReadString('\n')
			server, convErr := strconv.Atoi(strings.TrimSpace(line))
			if err != nil || convErr != nil {
				t.Fatalf("the host said %q: %v", line, err)
			}
			defer syscall.Kill(server, syscall.SIGKILL) // if the test fails
			host.Process.Signal(sig)
			host.Wait()
			waitGone(t, server, 3*time.Second)
		})
	}
}

// The parent-death signal follows the thread that started the server: a
// server started from a goroutine locked to its thread, which the runtime
// ends when the goroutine returns, must not die with that thread.
func TestServerOutlivesTheThreadThatAskedForIt(t *testing.T) {
	checkLeaks(t)
	started := make(chan *Stdio, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		started <- startFake(t, "echo", StdioConfig{})
	}()
	s := <-started
	// Threads are ended at once but not waited for: a few more round trips
	// leave the signal, if there were one, time to land.
	for i := 0; i < 20; i++ {
		if err := s.Write(context.Background(), []byte(`{"n":`+strconv.Itoa(i)+`}`)); err != nil {
			t.Fatalf("Write %d: %v", i, err)
		}
		if _, err := readWithin(t, s, 5*time.Second); err != nil {
			t.Fatalf("Read %d: %v (the server died with the thread that asked for it)", i, err)
		}
		runtime.Gosched()
	}
}

// Servers started and reaped concurrently share the spawner, which stops
// once the last is reaped and starts again for the next.
func TestSpawnerStopsWithTheLastServer(t *testing.T) {
	checkLeaks(t)
	for round := 0; round < 2; round++ {
		done := make(chan struct{})
		for i := 0; i < 8; i++ {
			go func() {
				defer func() { done <- struct{}{} }()
				exe, _ := os.Executable()
				s, err := StartStdio(StdioConfig{Command: exe, Env: []string{helperEnv + "=echo", "GORACE=atexit_sleep_ms=0"}})
				if err != nil {
					t.Error(err)
					return
				}
				s.Close()
				<-s.exited
			}()
		}
		for i := 0; i < 8; i++ {
			<-done
		}
		live, running := childproc.Spawner()
		if live != 0 || running {
			t.Fatalf("round %d: %d servers live, spawner running %v", round, live, running)
		}
	}
}
