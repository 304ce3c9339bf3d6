package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Subscribe in the stateless era returns once the server acknowledged the
// resource, so a change made right after is not lost; a server without
// subscriptions/listen fails it at once, and one that never acknowledges
// it is waited for within the caller's context. A busy callback of the
// host's holds none of it up.
func TestSubscribeWaitsForTheAcknowledgement(t *testing.T) {
	for _, tc := range []struct {
		name   string
		listen jsonrpc.Handler
		want   func(error) bool
	}{
		{"acknowledged", nil, func(err error) bool { return err == nil }},
		{"no such method", fail(jsonrpc.CodeMethodNotFound, "no"), func(err error) bool { return errors.Is(err, jsonrpc.ErrMethodNotFound) }},
		{"never acknowledged", hang, func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := modernServer(t)
			var acked atomic.Bool
			listen := tc.listen
			if listen == nil {
				listen = func(ctx context.Context, r *jsonrpc.Request) (any, error) {
					var p struct{ Notifications json.RawMessage }
					json.Unmarshal(r.Params, &p)
					time.Sleep(20 * time.Millisecond) // a server slow to set the subscription up
					acked.Store(true)
					f.Conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "listening"})
					f.Conn.Notify(ctx, "notifications/subscriptions/acknowledged", map[string]any{"notifications": p.Notifications})
					<-ctx.Done()
					return nil, ctx.Err()
				}
			}
			f.Handle("subscriptions/listen", listen)
			// The host's log callback is busy throughout: the session
			// hears the acknowledgement all the same, on its read loop.
			busy := make(chan struct{})
			defer close(busy)
			s := connect(t, f, &Options{OnLog: func(LogMessage) { <-busy }})
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			err := s.Subscribe(ctx, "file:///a")
			if !tc.want(err) {
				t.Fatalf("Subscribe: %v", err)
			}
			if err == nil && !acked.Load() {
				t.Error("Subscribe returned before the server acknowledged it")
			}
		})
	}
}
