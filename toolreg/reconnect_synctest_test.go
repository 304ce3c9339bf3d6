//go:build go1.25

package toolreg

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// Reconnection in a synctest bubble, over servers that are not processes:
// the backoff passes with time.Sleep on the bubble's clock, at once.

// A server that fails at every start is tried again once its backoff has
// passed, not at every call, and the backoff doubles.
func TestRegistryDoesNotHammerACrashLoop(t *testing.T) {
	synctest.Test(t, testRegistryDoesNotHammerACrashLoop)
}

func testRegistryDoesNotHammerACrashLoop(t *testing.T) {
	var starts atomic.Int64
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		starts.Add(1)
		return nil, errors.New("server exited: crashing on start")
	}
	r := newRegistry(t, &Options{Dial: dial}, memConfig("loop"))
	if n := starts.Load(); n != 1 {
		t.Fatalf("%d starts at New", n)
	}
	for range 20 {
		_, err := r.Session(ctx10(t), "loop")
		if err == nil || !strings.Contains(err.Error(), "crashing on start") {
			t.Fatalf("session of a crashing server: %v", err)
		}
	}
	if n := starts.Load(); n != 1 {
		t.Errorf("%d starts within the first backoff: the server is hammered", n)
	}
	time.Sleep(firstBackoff) // on the bubble's clock
	r.Session(ctx10(t), "loop")
	_, err := r.Session(ctx10(t), "loop")
	if n := starts.Load(); n != 2 {
		t.Errorf("%d starts after one backoff, want 2", n)
	}
	// The backoff doubles: the next try is 2 s away.
	if err == nil || !strings.Contains(err.Error(), "next attempt in 2s") {
		t.Errorf("after the second failure: %v", err)
	}
	if s := r.Servers()[0]; s.State != StateFailed {
		t.Errorf("state %q", s.State)
	}
	if _, err := r.Session(ctx10(t), "nobody"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("unknown server: %v", err)
	}
}

// One server, one session: calls that all find the server dead once its
// backoff has passed dial it once between them, not once each, and Close
// leaves no server running.
func TestRegistryReconnectDialsOnce(t *testing.T) {
	synctest.Test(t, testRegistryReconnectDialsOnce)
}

func testRegistryReconnectDialsOnce(t *testing.T) {
	m := &inMemory{}
	r, err := New(ctx10(t), &Config{Servers: []*ServerConfig{memConfig("one")}}, &Options{Dial: m.dial})
	if err != nil {
		t.Fatal(err)
	}
	if n := m.sent("one", "dial"); n != 1 {
		t.Fatalf("%d dials at start", n)
	}
	session, _ := r.Session(ctx10(t), "one")
	session.Close() // the server is gone
	synctest.Wait()
	if s := r.Servers()[0]; s.State != StateReconnecting {
		t.Fatalf("after the death: %+v", s)
	}
	time.Sleep(firstBackoff) // on the bubble's clock

	// Half the callers go through Call, half straight to the server's
	// session, as listings and calls both do; all arrive together.
	r.mu.Lock()
	srv := r.servers["one"]
	r.mu.Unlock()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if i%2 == 0 {
				if _, err := srv.live(ctx10(t)); err != nil {
					t.Errorf("live: %v", err)
				}
				return
			}
			if res, err := r.Call(ctx10(t), "mcp__one__echo", map[string]string{"text": "x"}); err != nil || res.Text() != "x" {
				t.Errorf("call: %v %v", res, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if n := m.sent("one", "dial"); n != 2 {
		t.Errorf("50 concurrent calls after a crash dialed %d times in all, want 2", n)
	}
	r.Close()
	m.wg.Wait() // every server's Serve returned: Close closed every session
}

// A server that comes up and dies at once, every time (it crashes on its
// first request, say), is a crash loop too: each short-lived session
// counts as a failure, and the backoff doubles as for a server that
// fails to start, rather than starting at 1 s again with every session
// that got as far as initialize. A session that lived long resets it.
func TestRegistryBacksOffASessionThatDiesAtOnce(t *testing.T) {
	synctest.Test(t, testRegistryBacksOffASessionThatDiesAtOnce)
}

func testRegistryBacksOffASessionThatDiesAtOnce(t *testing.T) {
	m := &inMemory{}
	var dying atomic.Bool
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		session, err := m.dial(ctx, sc, opts)
		if err == nil && dying.Load() {
			go session.Close() // gone right after initialize
		}
		return session, err
	}
	r := newInMemory(t, m, &Options{Dial: dial}, "flaky")
	dying.Store(true)
	session, _ := r.Session(ctx10(t), "flaky")
	session.Close()
	synctest.Wait() // the first death is noticed
	wait := firstBackoff
	for i := range 6 {
		if st := r.Servers()[0]; st.NextRetry.Sub(time.Now()) != wait {
			t.Fatalf("death %d: next retry in %v, want %v (%+v)", i+1, st.NextRetry.Sub(time.Now()), wait, st)
		}
		time.Sleep(wait)             // on the bubble's clock
		r.Session(ctx10(t), "flaky") // reconnects, and the session dies at once
		synctest.Wait()
		wait = min(2*wait, maxBackoff)
	}
	if n := m.sent("flaky", "dial"); n != 7 {
		t.Errorf("%d dials, want 7", n)
	}
	// A session that outlives the longest backoff was not a crash loop:
	// its death is retried after the first backoff again.
	dying.Store(false)
	time.Sleep(maxBackoff)
	if _, err := r.Session(ctx10(t), "flaky"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(maxBackoff)
	session, _ = r.Session(ctx10(t), "flaky")
	session.Close()
	synctest.Wait()
	if st := r.Servers()[0]; st.NextRetry.Sub(time.Now()) != firstBackoff {
		t.Errorf("after a long-lived session: next retry in %v, want %v", st.NextRetry.Sub(time.Now()), firstBackoff)
	}
}

// A host asks for the tools every turn. A dead server whose restart hangs
// (its initialize is never answered) must not hold that up each time its
// backoff passes: Tools answers at once, with the other servers' tools
// and the dead one's last listing, while the restart goes on within its
// startup timeout.
func TestToolsDoNotWaitForAHungRestart(t *testing.T) {
	synctest.Test(t, testToolsDoNotWaitForAHungRestart)
}

func testToolsDoNotWaitForAHungRestart(t *testing.T) {
	m := &inMemory{}
	var hang atomic.Bool
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		if sc.Name == "hung" && hang.Load() {
			<-ctx.Done() // initialize is never answered
			return nil, ctx.Err()
		}
		return m.dial(ctx, sc, opts)
	}
	r := newInMemory(t, m, &Options{Dial: dial}, "ok", "hung")
	before, err := r.Tools(ctx10(t))
	if err != nil || len(before) == 0 {
		t.Fatalf("tools at start: %d, %v", len(before), err)
	}
	hang.Store(true)
	session, _ := r.Session(ctx10(t), "hung")
	session.Close()
	synctest.Wait()
	for turn := range 3 {
		time.Sleep(maxBackoff) // every backoff has passed: each turn may restart it
		start := time.Now()
		tools, _ := r.Tools(ctx10(t))
		if waited := time.Since(start); waited > 0 {
			t.Errorf("turn %d: Tools waited %v for the restart", turn, waited)
		}
		if len(tools) != len(before) {
			t.Errorf("turn %d: %d tools, want the %d listed before", turn, len(tools), len(before))
		}
	}
}
