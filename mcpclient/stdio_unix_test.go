//go:build unix

package mcpclient

import (
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/procwait"
)

// waitGone fails the test unless process pid is gone within two seconds
// (a zombie counts as gone: a grandchild whose parent died is reaped by
// init, sometimes much later).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if err := procwait.Ended(pid, 2*time.Second); err != nil {
		t.Errorf("process %d still exists after Close: %v", pid, err)
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
