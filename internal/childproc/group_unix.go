//go:build unix

package childproc

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup starts cmd in a process group of its own.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// SignalGroup sends sig to the process group of p, a process Start
// started; to p alone if it left its group.
func SignalGroup(p *os.Process, sig syscall.Signal) {
	// The group id is the child's pid (Setpgid with Pgid 0).
	if syscall.Kill(-p.Pid, sig) == syscall.ESRCH {
		// No such group: the child moved to another one. os.Process
		// knows whether it has been reaped, unlike a bare pid.
		p.Signal(sig)
	}
}

// Kill kills p, a process Start started, and its process group.
func Kill(p *os.Process) { SignalGroup(p, syscall.SIGKILL) }
