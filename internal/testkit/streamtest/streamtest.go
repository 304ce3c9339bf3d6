// Package streamtest holds what the transports' tests share: reading a
// frame with a bound, so that a Read that hangs fails its test instead of
// the whole run. It imports the standard library and jsonrpc only.
package streamtest

import (
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// ReadWithin reads one frame, failing the test if Read takes longer than
// d. A Read left behind is unblocked by the test's Close of s.
func ReadWithin(t *testing.T, s jsonrpc.Stream, d time.Duration) ([]byte, error) {
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
