//go:build unix

package remote

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/procwait"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// pidsOf waits, at most 10 s, for n pids in the file at path.
func pidsOf(t *testing.T, path string, n int) []int {
	t.Helper()
	for give := time.Now().Add(10 * time.Second); time.Now().Before(give); time.Sleep(10 * time.Millisecond) {
		data, _ := os.ReadFile(path)
		if fields := strings.Fields(string(bytes.TrimSpace(data))); len(fields) >= n {
			var pids []int
			for _, f := range fields {
				pid, _ := strconv.Atoi(f)
				pids = append(pids, pid)
			}
			return pids
		}
	}
	t.Fatalf("the helpers did not start within 10s")
	return nil
}

// pidFile is an empty file for the pids of a test's processes, named in
// the environment the test's children inherit.
func pidFile(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "pids")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(pidsEnv, path)
	return path
}

// A headersHelper that does not finish is killed with everything it
// started when its call's context ends: its process group, not the
// helper alone.
func TestHelperGroupIsKilledWhenItsContextEnds(t *testing.T) {
	path := pidFile(t)
	t.Setenv(roleEnv, "stuck-parent")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	var hc streamhttp.Config
	go func() {
		done <- addHelperHeaders(ctx, &toolreg.ServerConfig{Name: "web", URL: "http://127.0.0.1:1/", HeadersHelper: secret.New(os.Args[0])}, &hc)
	}()
	pids := pidsOf(t, path, 2)
	for _, pid := range pids {
		defer syscall.Kill(pid, syscall.SIGKILL) // if the test fails
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("a helper stopped mid-run gave headers")
	}
	for _, pid := range pids {
		if err := procwait.Ended(pid, 3*time.Second); err != nil {
			t.Errorf("process %d of the helper still runs 3s after its call ended: %v", pid, err)
		}
	}
}
