//go:build !linux && !windows

package childproc

import "os/exec"

// startLinked starts cmd. These systems have no parent-death signal: a
// server whose host is killed sees its stdin end, and one that ignores
// that outlives the host (see the README's table).
func startLinked(cmd *exec.Cmd) (release func(), err error) {
	return func() {}, cmd.Start()
}
