package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// A server that answers the listen request carrying a new subscription
// with an error has answered the Subscribe: it fails at once with that
// error, not after waiting out the acknowledgement's bound, and the
// resource leaves the filter, so the next listen request (here the one
// of a later subscription, acknowledged) no longer carries it.
func TestSubscribeRefusedEndsAtOnce(t *testing.T) {
	f := modernServer(t)
	f.Handle("subscriptions/listen", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		var p struct {
			Notifications subscriptionFilter `json:"notifications"`
		}
		json.Unmarshal(r.Params, &p)
		if slices.Contains(p.Notifications.ResourceSubscriptions, "file:///gone") {
			return nil, jsonrpc.NewError(CodeResourceNotFound, "no such resource")
		}
		f.Conn.Notify(ctx, "notifications/subscriptions/acknowledged", map[string]any{"notifications": p.Notifications})
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s := connect(t, f, nil)
	start := time.Now()
	err := s.Subscribe(ctx5s(t), "file:///gone")
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != CodeResourceNotFound {
		t.Fatalf("Subscribe: %v, want the server's error", err)
	}
	if d := time.Since(start); d > subscribeAckWait/2 {
		t.Errorf("Subscribe took %v to report the server's answer", d)
	}
	if err := s.Subscribe(ctx5s(t), "file:///here"); err != nil {
		t.Fatalf("a later Subscribe: %v", err)
	}
}
