package remote

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/procwait"
)

// A headersHelper dies with its host however the host dies: after
// SIGKILL of a host mid-run, a helper that ignores SIGTERM is gone within
// 3 seconds (the parent-death signal transport's servers have; before,
// it ran on).
func TestHelperDiesWithItsHost(t *testing.T) {
	path := pidFile(t)
	host := exec.Command(os.Args[0])
	host.Env = append(os.Environ(), roleEnv+"=host", "GORACE=atexit_sleep_ms=0")
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer host.Process.Kill()
	helper := pidsOf(t, path, 1)[0]
	defer syscall.Kill(helper, syscall.SIGKILL) // if the test fails
	host.Process.Kill()
	host.Wait()
	if err := procwait.Ended(helper, 3*time.Second); err != nil {
		t.Errorf("the helper %d still runs 3s after its host was killed: %v", helper, err)
	}
}
