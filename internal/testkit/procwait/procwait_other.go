//go:build unix && !linux

package procwait

import "time"

// Ended waits at most d for process pid to end, looking every 10 ms: only
// Linux tells when a process that is not our child ends. It returns nil
// once the process has ended (or never existed), ErrRunning if it still
// runs after d.
func Ended(pid int, d time.Duration) error { return poll(pid, d) }
