package toolreg

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// After Close, nothing starts a server again (a lazy registry's call, a
// Reconnect), and what needs a server fails with an error that says the
// registry is closed (errors.Is ErrClosed), not that the tool is unknown
// or the server was removed.
func TestNothingStartsAfterClose(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		t.Run(map[bool]string{false: "eager", true: "lazy"}[lazy], func(t *testing.T) {
			m := &inMemory{}
			var dials atomic.Int64
			dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
				dials.Add(1)
				return m.dial(ctx, sc, opts)
			}
			r := newInMemory(t, m, &Options{Dial: dial, Lazy: lazy}, "a")
			before := dials.Load()
			r.Close()
			if _, err := r.Call(ctx10(t), "mcp__a__echo", map[string]string{"text": "x"}); !errors.Is(err, ErrClosed) {
				t.Errorf("Call after Close: %v", err)
			}
			if _, err := r.Session(ctx10(t), "a"); !errors.Is(err, ErrClosed) {
				t.Errorf("Session after Close: %v", err)
			}
			if err := r.Reconnect(ctx10(t), "a"); !errors.Is(err, ErrClosed) {
				t.Errorf("Reconnect after Close: %v", err)
			}
			if err := r.Refresh(ctx10(t), "a"); !errors.Is(err, ErrClosed) {
				t.Errorf("Refresh after Close: %v", err)
			}
			if n := dials.Load() - before; n != 0 {
				t.Errorf("%d servers dialed after Close", n)
			}
		})
	}
}
