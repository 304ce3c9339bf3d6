package toolreg

import (
	"context"
	"errors"
	"sync"
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

// A connection attempt that Remove (or Close) cuts short is no failure
// of the server's: OnDisconnect does not hear of it after Remove has
// returned, the status does not turn to failed, and the attempt's caller
// learns that the server was removed.
func TestRemoveDuringConnectIsNoFailure(t *testing.T) {
	dialing := make(chan struct{})
	var dials atomic.Int64
	m := &inMemory{}
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		if dials.Add(1) == 1 {
			return m.dial(ctx, sc, opts)
		}
		close(dialing)
		<-ctx.Done() // a server that never answers
		return nil, ctx.Err()
	}
	var mu sync.Mutex
	var heard []error
	r := newInMemory(t, m, &Options{Dial: dial, OnDisconnect: func(_ string, err error) {
		mu.Lock()
		heard = append(heard, err)
		mu.Unlock()
	}}, "a")
	done := make(chan error)
	go func() { done <- r.Reconnect(context.Background(), "a") }()
	<-dialing
	r.mu.Lock()
	srv := r.servers["a"]
	r.mu.Unlock()
	if err := r.Remove("a"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrRemoved) {
		t.Errorf("Reconnect cut short by Remove: %v", err)
	}
	r.hooks.settle()
	mu.Lock()
	defer mu.Unlock()
	for _, err := range heard {
		if !errors.Is(err, ErrRemoved) {
			t.Errorf("OnDisconnect heard %v", err)
		}
	}
	if st := srv.status(); st.State == StateFailed {
		t.Errorf("status after Remove: %+v", st)
	}
}
