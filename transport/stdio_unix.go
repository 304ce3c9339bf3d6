//go:build unix

package transport

import (
	"fmt"
	"os"
	"syscall"

	"github.com/plainmcp/plainmcp/internal/childproc"
)

// The server runs in a process group of its own (childproc.Start), so
// that Close can signal every process it started without touching ours.

// terminate asks the server's process group to stop.
func terminate(p *os.Process) { childproc.SignalGroup(p, syscall.SIGTERM) }

// kill kills the server's process group.
func kill(p *os.Process) { childproc.Kill(p) }

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
