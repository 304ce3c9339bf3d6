// Package childproc starts the child processes a plainmcp host runs on
// its user's behalf — stdio servers (package transport), a remote
// server's headersHelper (toolreg/remote) — so that they end with the
// host: each in a process group of its own (so that the whole group can
// be signalled without touching the host's), and tied to the host's life
// where the system can (Linux: a parent-death signal; Windows: a job
// object that kills its processes when the host ends; elsewhere nothing,
// see the README's table). It is machinery those packages share, out of
// the public API.
package childproc

import (
	"os/exec"
)

// Start starts cmd in a process group of its own, tied to the host's
// life. cmd's SysProcAttr, if any, is replaced. Once cmd has been reaped
// (its Wait returned), the caller calls release, once.
func Start(cmd *exec.Cmd) (release func(), err error) {
	setGroup(cmd)
	return startLinked(cmd)
}
