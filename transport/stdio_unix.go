//go:build unix

package transport

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// setGroup starts the server in a process group of its own, so that Close
// can signal every process it started without touching ours.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminate asks the server's process group to stop.
func terminate(p *os.Process) { signalGroup(p, syscall.SIGTERM) }

// kill kills the server's process group.
func kill(p *os.Process) { signalGroup(p, syscall.SIGKILL) }

func signalGroup(p *os.Process, sig syscall.Signal) {
	// The group id is the server's pid (Setpgid with Pgid 0).
	if syscall.Kill(-p.Pid, sig) == syscall.ESRCH {
		// No such group: the server moved to another one. os.Process
		// knows whether it has been reaped, unlike a bare pid.
		p.Signal(sig)
	}
}

// groupAlive reports whether any process is left in the server's group.
func groupAlive(p *os.Process) bool {
	return syscall.Kill(-p.Pid, 0) == nil
}

// signalOf returns the signal that ended a process, or 0.
func signalOf(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}

// signalName describes a signal number for a message, as " (killed)".
func signalName(sig int) string { return fmt.Sprintf(" (%v)", syscall.Signal(sig)) }

// safeEnv lists the variables passed on to a server by default.
func safeEnv() []string {
	return []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "LC_ALL"}
}

func sameEnvName(a, b string) bool { return a == b }
