//go:build unix

package procwait

import (
	"errors"
	"os/exec"
	"testing"
	"time"
)

// Ended returns once a process that is not waited for has ended (a
// zombie, here), says ErrRunning for one that runs on, and nil for a pid
// that was reaped.
func TestEnded(t *testing.T) {
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Skip("needs sleep(1):", err)
	}
	pid := sleeper.Process.Pid
	if err := Ended(pid, 50*time.Millisecond); !errors.Is(err, ErrRunning) {
		t.Errorf("a running process: %v, want ErrRunning", err)
	}
	sleeper.Process.Kill()
	if err := Ended(pid, 5*time.Second); err != nil {
		t.Errorf("a killed process (a zombie until Wait): %v", err)
	}
	sleeper.Wait()
	if err := Ended(pid, time.Second); err != nil {
		t.Errorf("a reaped process: %v", err)
	}
}
