//go:build go1.25

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// A long call that keeps proving it is alive is not lost to the default
// timeout; one that never ends, or goes silent, is. The clock is a
// synctest bubble's: 70 seconds, or 30 minutes, pass at once.

// progressingTool makes f's tools/call run for d, sending progress every
// 5s for the token the call carries; with no token, it fails the test
// only if wantToken. The tool runs until its context ends if d is 0.
func progressingTool(t *testing.T, f *fakemcp.Server, d time.Duration, wantToken bool) {
	f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		var p struct {
			Meta struct {
				ProgressToken json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		json.Unmarshal(r.Params, &p)
		if len(p.Meta.ProgressToken) == 0 && wantToken {
			t.Errorf("tools/call carried no progress token: %s", r.Params)
		}
		start := time.Now()
		for i := 1; d == 0 || time.Since(start) < d; i++ {
			select {
			case <-time.After(5 * time.Second):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if len(p.Meta.ProgressToken) > 0 {
				f.Conn.Notify(ctx, "notifications/progress", map[string]any{"progressToken": p.Meta.ProgressToken, "progress": i})
			}
		}
		return json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`), nil
	})
}

// TestLongCallWithProgressSurvives: a 70s tool that reports progress
// every 5s returns its result with default options, and with a 60s
// RequestTimeout that only progress pushes back, whether or not the
// caller asked for progress, in both eras.
func TestLongCallWithProgressSurvives(t *testing.T) {
	for _, c := range []struct {
		era     Era
		asked   bool
		timeout time.Duration
	}{
		{EraHandshake, false, 0}, {EraHandshake, false, time.Minute}, {EraHandshake, true, time.Minute},
		{EraStateless, false, 0}, {EraStateless, false, time.Minute}, {EraStateless, true, time.Minute},
	} {
		era, asked := c.era, c.asked
		name := fmt.Sprintf("%s/WithProgress=%v/RequestTimeout=%v", era, asked, c.timeout)
		{
			t.Run(name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					f := modernServer(t)
					progressingTool(t, f, 70*time.Second, true)
					s := connectBubbled(t, f, &Options{Era: era, RequestTimeout: c.timeout})
					ctx, seen := context.Background(), 0
					if asked {
						ctx = WithProgress(ctx, func(Progress) { seen++ })
					}
					start := time.Now()
					res, err := s.CallTool(ctx, "long", nil)
					if err != nil || res.Text() != "done" {
						t.Fatalf("after %v: CallTool = %v, %v; want its result", time.Since(start), res, err)
					}
					if asked && seen != 14 {
						t.Errorf("the callback saw %d updates, want 14", seen)
					}
				})
			})
		}
	}
}

// TestTimeoutBounds: which bound fires, when, and how it is reported.
func TestTimeoutBounds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     Options
		method   string
		progress bool // the tool reports progress every 5s, forever
		after    time.Duration
		capped   bool
	}{
		{"progress forever meets the total cap", Options{}, "tools/call", true, 30 * time.Minute, true},
		{"a cap of the caller's", Options{MaxRequestTimeout: 2 * time.Minute}, "tools/call", true, 2 * time.Minute, true},
		{"a silent tool call gets the tools default", Options{}, "tools/call", false, 10 * time.Minute, false},
		{"a silent list gets the requests default", Options{}, "tools/list", false, time.Minute, false},
		{"RequestTimeout bounds tool calls too", Options{RequestTimeout: 90 * time.Second}, "tools/call", false, 90 * time.Second, false},
		{"progress restarts nothing when opted out", Options{RequestTimeout: time.Minute, MaxRequestTimeout: -1}, "tools/call", true, time.Minute, false},
	} {
		// A caller's context that can end by itself takes another way to
		// its timeout (timeout.go): both must keep the bounds.
		for _, cancelable := range []bool{false, true} {
			name := tc.name
			if cancelable {
				name += ", under a context that can be cancelled"
			}
			t.Run(name, func(t *testing.T) {
				checkTimeoutBound(t, tc.opts, tc.method, tc.progress, cancelable, tc.after, tc.capped)
			})
		}
	}
}

// checkTimeoutBound is one case of TestTimeoutBounds.
func checkTimeoutBound(t *testing.T, opts Options, method string, progress, cancelable bool, after time.Duration, capped bool) {
	synctest.Test(t, func(t *testing.T) {
		f := fakemcp.New(t)
		if progress {
			progressingTool(t, f, 0, opts.MaxRequestTimeout >= 0)
		}
		f.Handle("tools/list", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		if !progress {
			f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			})
		}
		s := connectBubbled(t, f, &opts)
		ctx := context.Background()
		if cancelable {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			defer cancel()
		}
		start := time.Now()
		var err error
		if method == "tools/call" {
			_, err = s.CallTool(ctx, "t", nil)
		} else {
			_, err = s.listTools(ctx, "")
		}
		var te *TimeoutError
		if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want a TimeoutError", err)
		}
		if d := time.Since(start); d != after || te.After != after || te.Capped != capped || te.Method != method {
			t.Errorf("%+v after %v, want After %v, Capped %v", te, d, after, capped)
		}
	})
}
