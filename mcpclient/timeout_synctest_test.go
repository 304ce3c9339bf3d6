//go:build go1.25

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The timeouts of these tests pass on a synctest bubble's clock: a call
// that times out after 100ms takes exactly 100ms of it, and none of the
// real time a loaded machine would stretch.

func TestDefaultTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := fakemcp.New(t)
		f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		s := connectBubbled(t, f, &Options{RequestTimeout: 100 * time.Millisecond})
		start := time.Now()
		_, err := s.CallTool(context.Background(), "hang", nil)
		var te *TimeoutError
		if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) || te.Method != "tools/call" {
			t.Fatalf("err = %v, want a TimeoutError", err)
		}
		if d := time.Since(start); d != 100*time.Millisecond {
			t.Errorf("timed out after %v, want 100ms", d)
		}
		f.WaitNote("notifications/cancelled")
	})
}

func TestProgressAndTimeoutReset(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    Options
		wantErr time.Duration // when the call times out; 0: it does not
	}{
		// The server takes 8 steps of 50ms: 400ms in all.
		{"progress keeps a slow call alive", Options{RequestTimeout: 300 * time.Millisecond}, 0},
		{"without reset it times out", Options{RequestTimeout: 300 * time.Millisecond, MaxRequestTimeout: -1}, 300 * time.Millisecond},
		{"the hard cap wins", Options{RequestTimeout: 300 * time.Millisecond, MaxRequestTimeout: 250 * time.Millisecond}, 250 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := fakemcp.New(t)
				var token json.RawMessage
				f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
					var p struct {
						Meta struct {
							ProgressToken json.RawMessage `json:"progressToken"`
						} `json:"_meta"`
					}
					json.Unmarshal(r.Params, &p)
					token = p.Meta.ProgressToken
					for i := 1; i <= 8; i++ {
						select {
						case <-time.After(50 * time.Millisecond):
						case <-ctx.Done():
							return nil, ctx.Err()
						}
						f.Conn.Notify(ctx, "notifications/progress", map[string]any{"progressToken": token, "progress": i, "total": 8, "message": "step"})
					}
					return json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`), nil
				})
				opts := tc.opts
				s := connectBubbled(t, f, &opts)
				var mu sync.Mutex
				var seen []Progress
				ctx := WithProgress(context.Background(), func(p Progress) { mu.Lock(); seen = append(seen, p); mu.Unlock() })
				start := time.Now()
				res, err := s.CallTool(ctx, "slow", map[string]int{"steps": 8})
				if tc.wantErr != 0 {
					if !errors.Is(err, context.DeadlineExceeded) {
						t.Fatalf("err = %v, want a timeout", err)
					}
					if d := time.Since(start); d != tc.wantErr {
						t.Errorf("timed out after %v, want %v", d, tc.wantErr)
					}
					return
				}
				if err != nil || res.Text() != "done" {
					t.Fatalf("CallTool = %v, %v", res, err)
				}
				if len(token) == 0 {
					t.Fatal("no progress token sent")
				}
				mu.Lock()
				defer mu.Unlock()
				if len(seen) != 8 || seen[7].Progress != 8 || seen[7].Total != 8 || seen[0].Message != "step" {
					t.Errorf("progress seen: %+v", seen)
				}
			})
		})
	}
}

// The caller's deadline wins over RequestTimeout, longer or shorter;
// RequestTimeout bounds only a call whose context has none.
func TestCallersDeadlineWins(t *testing.T) {
	for _, era := range []Era{EraHandshake, EraStateless} {
		t.Run(era.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := modernServer(t)
				slowTool(f, 300*time.Millisecond)
				s := connectBubbled(t, f, &Options{Era: era, RequestTimeout: 100 * time.Millisecond})

				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				if res, err := s.CallTool(ctx, "slow", nil); err != nil || res.Text() != "late but fine" {
					t.Errorf("with a 2s deadline of the caller's: %v, %v; RequestTimeout must not cut it", res, err)
				}

				start := time.Now()
				_, err := s.CallTool(context.Background(), "slow", nil)
				var te *TimeoutError
				if !errors.As(err, &te) || time.Since(start) != 100*time.Millisecond {
					t.Errorf("without a deadline: %v after %v, want a TimeoutError after 100ms", err, time.Since(start))
				}

				ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
				defer cancel()
				_, err = s.CallTool(ctx, "slow", nil)
				if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te) {
					t.Errorf("with a 50ms deadline: %v, want the caller's own deadline error", err)
				}
			})
		})
	}
}

// One timer per session ends every timed-out exchange (timeout.go). A
// request whose deadline comes before those in flight must pull it
// forward: a prompts/get with progress (60s) sent while a tool call waits
// (10 minutes) times out at 60s, not with the tool call; and the tool
// call still times out at its own deadline, as does a caller's own
// cancellation at once.
func TestEarliestDeadlineFiresFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := fakemcp.New(t)
		hang := func(ctx context.Context, r *jsonrpc.Request) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		f.Handle("tools/call", hang)
		f.Handle("prompts/get", hang)
		s := connectBubbled(t, f, nil)
		start := time.Now()
		toolDone := make(chan time.Duration, 1)
		go func() {
			_, err := s.CallTool(context.Background(), "slow", nil)
			var te *TimeoutError
			if !errors.As(err, &te) || te.After != 10*time.Minute {
				t.Errorf("tool call: %v, want a TimeoutError after 10m", err)
			}
			toolDone <- time.Since(start)
		}()
		time.Sleep(time.Second)

		ctx := WithProgress(context.Background(), func(Progress) {})
		err := s.Call(ctx, "prompts/get", map[string]string{"name": "p"}, nil)
		var te *TimeoutError
		if !errors.As(err, &te) || te.Method != "prompts/get" || te.After != time.Minute {
			t.Fatalf("prompts/get: %v, want a TimeoutError after 1m", err)
		}
		if d := time.Since(start); d != time.Second+time.Minute {
			t.Errorf("prompts/get timed out %v after the start, want 1m1s", d)
		}

		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		if _, err := s.CallTool(ctx, "slow", nil); !errors.Is(err, context.Canceled) || errors.As(err, &te) {
			t.Errorf("a cancelled tool call: %v, want context.Canceled", err)
		}
		if d := <-toolDone; d != 10*time.Minute {
			t.Errorf("the tool call timed out after %v, want 10m", d)
		}
	})
}
