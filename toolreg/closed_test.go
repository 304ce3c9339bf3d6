package toolreg

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// After Close, nothing starts a server again (a lazy registry's call, a
// Reconnect), and what needs a server fails with an error that says the
// registry is closed (errors.Is ErrRegistryClosed), not that the tool is unknown
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
			if _, err := r.Call(ctx10(t), "mcp__a__echo", map[string]string{"text": "x"}); !errors.Is(err, ErrRegistryClosed) {
				t.Errorf("Call after Close: %v", err)
			}
			if _, err := r.Session(ctx10(t), "a"); !errors.Is(err, ErrRegistryClosed) {
				t.Errorf("Session after Close: %v", err)
			}
			if err := r.Reconnect(ctx10(t), "a"); !errors.Is(err, ErrRegistryClosed) {
				t.Errorf("Reconnect after Close: %v", err)
			}
			if err := r.Refresh(ctx10(t), "a"); !errors.Is(err, ErrRegistryClosed) {
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

// A session whose server stopped talking (a stdio server that closed its
// stdout and runs on, an HTTP stream that ended) is closed once the
// registry notices, so that what it holds (the process, its GET stream)
// goes at once, not at the next reconnect, which a backoff may put off
// for a minute, or never comes.
func TestDeadSessionIsClosedWhenNoticed(t *testing.T) {
	m := &inMemory{}
	mute := make(chan struct{})
	closed := make(chan struct{})
	wrap := func(_ string, st jsonrpc.Stream) jsonrpc.Stream {
		return &muted{Stream: st, mute: mute, closed: closed}
	}
	r := newInMemory(t, m, &Options{WrapStream: wrap}, "a")
	close(mute) // the server says no more, and runs on
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatalf("the dead session was not closed: %+v", r.Servers()[0])
	}
	if st := r.Servers()[0]; st.State != StateReconnecting {
		t.Errorf("after the death: %+v", st)
	}
}

// muted is a stream whose reading ends (EOF) once mute is closed, and
// that closes closed when it is closed.
type muted struct {
	jsonrpc.Stream
	mute, closed chan struct{}
	once         sync.Once
}

func (m *muted) Read() ([]byte, error) {
	type read struct {
		frame []byte
		err   error
	}
	got := make(chan read, 1)
	go func() { f, err := m.Stream.Read(); got <- read{f, err} }()
	select {
	case r := <-got:
		return r.frame, r.err
	case <-m.mute:
		return nil, io.EOF
	}
}

func (m *muted) Close() error {
	m.once.Do(func() { close(m.closed) })
	return m.Stream.Close()
}
