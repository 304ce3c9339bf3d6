//go:build unix

package procwait

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"
)

// poll looks every 10 ms whether pid still runs, for at most d: the way
// where the kernel has no event to wait on.
func poll(pid int, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) || zombie(pid) {
			return nil
		}
		if time.Now().After(deadline) {
			return ErrRunning
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// zombie reports whether pid has ended but not been reaped, where /proc
// can tell (elsewhere it says false and the kill check decides).
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
