//go:build windows

package childproc

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// setGroup does nothing: Windows has no process groups to signal; the
// tree is found by taskkill, and the job object kills it with its host.
func setGroup(cmd *exec.Cmd) {}

// Kill kills p, a process Start started, and the processes it started
// (a helper script's curl, say): taskkill /T walks the tree. Where
// taskkill fails or cannot be found, p alone is killed.
func Kill(p *os.Process) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if exec.CommandContext(ctx, "taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid)).Run() != nil {
		p.Kill()
	}
}
