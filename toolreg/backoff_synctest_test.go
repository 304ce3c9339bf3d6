//go:build go1.25

package toolreg

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// The reconnection backoff runs on the bubble's clock in these tests: a
// test lets it pass with time.Sleep(firstBackoff), at once, and
// synctest.Wait says when a death has been noticed. One test kills a real
// server process inside the bubble: its clock stands still while one
// lives (a goroutine waiting on a pipe is not durably blocked), so that
// test moves it only when no server process is alive, after the kill,
// and waits on a hook, not a clock, for the registry to notice.

// Close stops a refresh stuck reconnecting to a server that never
// answers, and waits on no timer to do it.
func TestRegistryCloseStopsARefreshInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &inMemory{}
		var hang atomic.Bool
		dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
			if hang.Load() {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return m.dial(ctx, sc, opts)
		}
		r := newInMemory(t, m, &Options{Dial: dial}, "v")
		// The server dies; once the backoff has passed, the refresh
		// reconnects to one that never answers, and is stuck in connect.
		hang.Store(true)
		session, _ := r.Session(ctx10(t), "v")
		session.Close()
		synctest.Wait() // the death is noticed
		time.Sleep(firstBackoff)
		// Tools answers from the last listing and leaves the refresh
		// stuck in the background.
		if tools, err := r.Tools(ctx10(t)); err != nil || len(tools) == 0 {
			t.Fatalf("Tools: %d tools, %v", len(tools), err)
		}
		synctest.Wait() // the refresh is stuck in connect
		start := time.Now()
		r.Close()
		if d := time.Since(start); d != 0 {
			t.Errorf("Close took %v of the bubble's time: it waited for the stuck connect", d)
		}
		// The bubble ends only once the refresh goroutine is gone.
	})
}

// A start or reconnect that a listing causes waits for no hook: with a
// startup timeout of an hour, one that waited would fail the listing's
// own deadline. It holds with an OnConnect hook that does nothing, and
// with hooks that list the tools without a deadline and ask for the
// status; and Close returns.
func TestListingDrivenConnectDoesNotWaitForHooks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hooks func(r **Registry) *Options
	}{
		{"no hooks", func(**Registry) *Options { return &Options{} }},
		{"OnConnect that does nothing", func(**Registry) *Options { return &Options{OnConnect: func(ServerStatus) {}} }},
		{"hooks that call the registry", func(r **Registry) *Options {
			return &Options{
				OnConnect:    func(ServerStatus) { (*r).Tools(context.Background()) },
				OnDisconnect: func(string, error) { (*r).Servers() },
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var r *Registry
				opts := tc.hooks(&r)
				opts.Lazy, opts.StartupTimeout = true, time.Hour
				m := &inMemory{}
				r = newInMemory(t, m, opts, "a", "b")
				tools, err := r.Tools(ctx10(t))
				if err != nil || len(tools) == 0 {
					t.Fatalf("a lazy start through Tools: %d tools, %v", len(tools), err)
				}
				// The session dies; once its backoff is over, a listing
				// reconnects it.
				session, _ := r.Session(ctx10(t), "a")
				session.Close()
				synctest.Wait() // the crash is noticed, and the hooks have run
				if st := r.Servers()[0]; st.State != StateReconnecting {
					t.Fatalf("after the crash: %+v", st)
				}
				r.hooks.settle()         // no listing of the hooks' is left in flight, failing
				time.Sleep(firstBackoff) // on the bubble's clock
				if _, err := r.Groups(ctx10(t)); err != nil {
					t.Fatalf("a reconnect through Groups: %v", err)
				}
				synctest.Wait() // Groups answered at once; the reconnect went on
				if st := r.Servers()[0]; st.State != StateConnected {
					t.Errorf("after the reconnect: %+v", st)
				}
				closed := make(chan struct{})
				go func() { r.Close(); close(closed) }()
				select {
				case <-closed:
				case <-time.After(10 * time.Second):
					t.Fatal("Close did not return")
				}
			})
		})
	}
}

// The one test of a real process's death: SIGKILL, no goodbye. The
// reconnect after it dials an in-memory server, which saves a second
// process start: what it proves is the registry's, not the process's.
func TestRegistryReconnectsAfterKill(t *testing.T) {
	synctest.Test(t, testRegistryReconnectsAfterKill)
}

func testRegistryReconnectsAfterKill(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	var mu sync.Mutex
	var disconnects []error
	died := make(chan struct{}, 1)
	m := &inMemory{}
	t.Cleanup(m.WG.Wait) // after the registry's Close
	var dials atomic.Int64
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		if dials.Add(1) == 1 {
			return dialStdio(ctx, sc, opts)
		}
		return m.dial(ctx, memConfig(sc.Name), opts)
	}
	r := newRegistry(t, &Options{Dial: dial, OnDisconnect: func(server string, err error) {
		mu.Lock()
		disconnects = append(disconnects, err)
		mu.Unlock()
		select { // the first death; Close is heard of too
		case died <- struct{}{}:
		default:
		}
	}}, withEnv(demoConfig("victim"), pidFileEnv, pidFile))
	if res, err := r.Call(ctx10(t), "mcp__victim__echo", map[string]string{"text": "before"}); err != nil || res.Text() != "before" {
		t.Fatalf("%+v %v", res, err)
	}
	proc, err := os.FindProcess(readPid(t, pidFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := proc.Kill(); err != nil { // SIGKILL: no goodbye
		t.Fatal(err)
	}
	<-died // OnDisconnect runs once the registry has noticed
	mu.Lock()
	if len(disconnects) != 1 || disconnects[0] == nil {
		t.Errorf("OnDisconnect: %v", disconnects)
	}
	mu.Unlock()
	if s := r.Servers()[0]; s.State != StateReconnecting {
		t.Errorf("after the kill: %+v", s)
	}
	// Within the backoff, a call fails at once and names the wait; the tool
	// stays listed so that a later call can reconnect.
	if _, err := r.Call(ctx10(t), "mcp__victim__echo", map[string]string{"text": "x"}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "next attempt in") {
		t.Errorf("call during backoff: %v", err)
	}
	tools, _ := r.Tools(ctx10(t))
	if !hasTool(tools, "mcp__victim__echo") {
		t.Error("a reconnecting server's tools left the listing")
	}
	time.Sleep(firstBackoff) // on the bubble's clock
	res, err := r.Call(ctx10(t), "mcp__victim__echo", map[string]string{"text": "after"})
	if err != nil || res.Text() != "after" {
		t.Fatalf("call after the backoff: %+v %v", res, err)
	}
	if n := dials.Load(); n != 2 {
		t.Errorf("%d dials, want 2: the start and one reconnect", n)
	}
	if s := r.Servers()[0]; s.State != StateConnected || s.Err != nil {
		t.Errorf("after reconnecting: %+v", s)
	}
}

// readPid reads the pid the demo server wrote before it began to serve.
func readPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil || pid <= 0 {
		t.Fatalf("pid file %q: %v", b, err)
	}
	return pid
}

// Hooks and the approver run with no lock held: each may call the
// registry, also on a reconnect.
func TestHooksMayCallTheRegistry(t *testing.T) {
	synctest.Test(t, testHooksMayCallTheRegistry)
}

func testHooksMayCallTheRegistry(t *testing.T) {
	var r *Registry
	var ready atomic.Bool
	var mu sync.Mutex
	seen := map[string]int{}
	use := func(hook string) {
		if !ready.Load() {
			return // New is still running: r is not set yet
		}
		_ = r.Servers()
		mu.Lock()
		seen[hook]++
		mu.Unlock()
	}
	opts := &Options{
		OnConnect:    func(ServerStatus) { use("OnConnect") },
		OnDisconnect: func(string, error) { use("OnDisconnect") },
		OnToolCall:   func(Call, time.Duration, error) { use("OnToolCall"); r.Tools(context.Background()) },
		Approve:      func(context.Context, Call) error { use("Approve"); return nil },
	}
	r = newInMemory(t, &inMemory{}, opts, "h")
	ready.Store(true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := r.Call(ctx10(t), "mcp__h__echo", map[string]string{"text": "a"}); err != nil {
			t.Errorf("call: %v", err)
		}
		session, _ := r.Session(ctx10(t), "h")
		session.Close()          // the server is gone
		synctest.Wait()          // the death is noticed
		time.Sleep(firstBackoff) // on the bubble's clock
		if _, err := r.Call(ctx10(t), "mcp__h__echo", map[string]string{"text": "b"}); err != nil {
			t.Errorf("call after reconnecting: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("deadlock: a hook that calls the registry never returned")
	}
	synctest.Wait() // OnConnect runs in its turn, after the call that reconnected
	mu.Lock()
	defer mu.Unlock()
	for _, hook := range []string{"OnConnect", "OnDisconnect", "OnToolCall", "Approve"} {
		if seen[hook] == 0 {
			t.Errorf("%s never ran", hook)
		}
	}
}

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
	if n := m.Sent("one", "dial"); n != 1 {
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
	if n := m.Sent("one", "dial"); n != 2 {
		t.Errorf("50 concurrent calls after a crash dialed %d times in all, want 2", n)
	}
	r.Close()
	m.WG.Wait() // every server's Serve returned: Close closed every session
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
	if n := m.Sent("flaky", "dial"); n != 7 {
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
