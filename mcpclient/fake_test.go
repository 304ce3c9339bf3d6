package mcpclient

import (
	"context"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// connect connects a session with opts to f, a fake server (package
// fakemcp), over a pipe; both end with the test, which fails if a
// goroutine outlives them.
func connect(t *testing.T, f *fakemcp.Server, opts *Options) *Session {
	t.Helper()
	checkGoroutines(t)
	return connectBubbled(t, f, opts)
}

// connectBubbled is connect for a test in a synctest bubble, which has no
// leak check: the bubble waits for its own goroutines to end, and the
// check's two seconds would pass on the bubble's clock while a goroutine
// outside it (another test's) winds down.
func connectBubbled(t *testing.T, f *fakemcp.Server, opts *Options) *Session {
	t.Helper()
	return fakemcp.Connect(t, f, Connect, opts)
}

func checkGoroutines(t *testing.T) { t.Helper(); leakcheck.Check(t) }

func ctx5s(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}
