//go:build unix

package mcpclient

import (
	"syscall"
	"time"
)

// processCPU is the user and system time this process has used, all its
// threads together. The benchmarks' servers are child processes, so it is
// the client's time alone.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
