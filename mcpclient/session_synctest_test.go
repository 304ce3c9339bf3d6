//go:build go1.25

package mcpclient

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// The tests in this file run in a synctest bubble: a timeout passes on
// the bubble's clock the moment every goroutine waits, and
// synctest.Wait marks the point by which everything the client would
// send has arrived, so that a test can say nothing else was.

func TestInitializeErrorAndNoCancelForInitialize(t *testing.T) {
	synctest.Test(t, testInitializeErrorAndNoCancelForInitialize)
}

func testInitializeErrorAndNoCancelForInitialize(t *testing.T) {
	f := newFakeServer(t)
	f.handle("initialize", func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	a, b := transport.Pipe()
	f.serve(b)
	defer f.conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := Connect(ctx, a, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	synctest.Wait() // whatever the client sent has reached the server
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, n := range f.notes {
		if n.Method == "notifications/cancelled" {
			t.Error("initialize was cancelled; the spec forbids it")
		}
	}
}
