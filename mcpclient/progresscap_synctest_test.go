//go:build go1.25

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// MaxRequestTimeout bounds a call from its start, over every exchange
// of it: a modern server that keeps reporting progress and answers each
// exchange with input_required does not get the cap afresh each round.
func TestProgressCapSpansInputRounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := modernServer(t)
		rounds := 0
		f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
			var p struct {
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			}
			json.Unmarshal(r.Params, &p)
			for i := 1; i <= 4; i++ { // 200ms, progress every 50ms
				select {
				case <-time.After(50 * time.Millisecond):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				f.Conn.Notify(ctx, "notifications/progress", map[string]any{"progressToken": p.Meta.ProgressToken, "progress": i})
			}
			if rounds++; rounds < 3 {
				return json.RawMessage(`{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"go on?"}}}}`), nil
			}
			return json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`), nil
		})
		s := connectBubbled(t, f, &Options{RequestTimeout: 100 * time.Millisecond, MaxRequestTimeout: 300 * time.Millisecond,
			Elicitation: func(context.Context, *ElicitParams) (*ElicitResult, error) {
				return &ElicitResult{Action: "accept"}, nil
			}})
		start := time.Now()
		_, err := s.CallTool(context.Background(), "slow", nil)
		var te *TimeoutError
		if !errors.As(err, &te) || !te.Capped {
			t.Fatalf("CallTool after %v: %v, want the cap's timeout", time.Since(start), err)
		}
		if d := time.Since(start); d != 300*time.Millisecond {
			t.Errorf("capped after %v, want 300ms", d)
		}
	})
}
