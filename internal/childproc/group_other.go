//go:build !unix && !windows

package childproc

import (
	"os"
	"os/exec"
)

// setGroup does nothing: there are no process groups to signal here.
func setGroup(cmd *exec.Cmd) {}

// Kill kills p, a process Start started.
func Kill(p *os.Process) { p.Kill() }
