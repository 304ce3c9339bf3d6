package streamhttp

import (
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// readWithin reads one frame, failing the test if Read takes longer than d.
// A Read left behind is unblocked by the test's Close.
func readWithin(t *testing.T, s jsonrpc.Stream, d time.Duration) ([]byte, error) {
	t.Helper()
	type result struct {
		frame []byte
		err   error
	}
	c := make(chan result, 1)
	go func() {
		frame, err := s.Read()
		c <- result{frame, err}
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case r := <-c:
		return r.frame, r.err
	case <-timer.C:
		t.Fatalf("Read did not return within %v", d)
		return nil, nil
	}
}

func checkLeaks(t *testing.T) { t.Helper(); leakcheck.Check(t) }
