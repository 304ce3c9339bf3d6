package procwait

import (
	"errors"
	"syscall"
	"time"
)

// sysPidfdOpen is pidfd_open(2)'s number, the same on every Linux
// architecture Go supports (syscall has no name for it).
const sysPidfdOpen = 434

// Ended waits at most d for process pid to end. It returns nil once the
// process has ended (or never existed), ErrRunning if it still runs after
// d, or another error if the wait itself failed.
func Ended(pid int, d time.Duration) error {
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	switch {
	case errno == syscall.ESRCH:
		return nil // gone, and reaped
	case errno == syscall.ENOSYS || errno == syscall.EPERM:
		return poll(pid, d) // a kernel before 5.3, or a sandbox
	case errno != 0:
		return errno
	}
	defer syscall.Close(int(fd))
	if fd >= 1024 {
		return poll(pid, d) // beyond what select's fd_set holds
	}
	deadline := time.Now().Add(d)
	for {
		var set syscall.FdSet
		per := 1024 / uintptr(len(set.Bits)) // bits in an element: 64 or 32
		set.Bits[fd/per] |= 1 << (fd % per)
		tv := syscall.NsecToTimeval(max(time.Until(deadline), 0).Nanoseconds())
		n, err := syscall.Select(int(fd)+1, &set, nil, nil, &tv)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return err
		case n > 0:
			return nil // the pidfd is readable: the process has ended
		}
		return ErrRunning
	}
}
