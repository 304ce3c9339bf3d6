package streamhttp

import (
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/internal/testkit/streamtest"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// readWithin reads one frame, failing the test if Read takes longer than d.
func readWithin(t *testing.T, s jsonrpc.Stream, d time.Duration) ([]byte, error) {
	t.Helper()
	return streamtest.ReadWithin(t, s, d)
}

func checkLeaks(t *testing.T) { t.Helper(); leakcheck.Check(t) }
