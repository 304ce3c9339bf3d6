//go:build go1.25

package mcpclient

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The test in this file runs in a synctest bubble: a timeout passes on
// the bubble's clock the moment every goroutine waits.

// TestInitializeNeverAnsweredEndsConnect: an initialize that never comes
// back ends Connect at its deadline, with the deadline's error. (That the
// abandoned initialize is not cancelled at the server is checked on a live
// session by TestLifecycleRequestsAreNeverCancelled: here Connect closes
// its conn as it fails, before any notice could go.)
func TestInitializeNeverAnsweredEndsConnect(t *testing.T) {
	synctest.Test(t, testInitializeNeverAnsweredEndsConnect)
}

func testInitializeNeverAnsweredEndsConnect(t *testing.T) {
	f := fakemcp.New(t)
	f.Handle("initialize", func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	a := f.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := Connect(ctx, a, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

// A callback may close its own session, in either era: Close waits its
// moment for the callback (itself) and no longer, and the session ends.
func TestCloseFromACallback(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			f := fakemcp.New(t)
			if stateless {
				f.Result("server/discover", discoverOK)
			}
			var s *Session
			closed := make(chan error, 1)
			s = connectBubbled(t, f, &Options{OnLog: func(LogMessage) { closed <- s.Close() }})
			f.Conn.Notify(context.Background(), "notifications/message", map[string]any{"level": "info", "data": "bye"})
			if err := <-closed; err != nil {
				t.Errorf("Close from OnLog: %v", err)
			}
			if s.Err() == nil {
				t.Error("the session still runs")
			}
		})
	}
}
