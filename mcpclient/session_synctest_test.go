//go:build go1.25

package mcpclient

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The tests in this file run in a synctest bubble: a timeout passes on
// the bubble's clock the moment every goroutine waits, and
// synctest.Wait marks the point by which everything the client would
// send has arrived, so that a test can say nothing else was.

func TestInitializeErrorAndNoCancelForInitialize(t *testing.T) {
	synctest.Test(t, testInitializeErrorAndNoCancelForInitialize)
}

func testInitializeErrorAndNoCancelForInitialize(t *testing.T) {
	f := fakemcp.New(t)
	f.Handle("initialize", func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	a := f.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := Connect(ctx, a, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	synctest.Wait() // whatever the client sent has reached the server
	if len(f.Notes("notifications/cancelled")) != 0 {
		t.Error("initialize was cancelled; the spec forbids it")
	}
}
