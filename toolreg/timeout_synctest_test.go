//go:build go1.25

package toolreg

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// The tests in this file run in a synctest bubble over in-memory servers:
// their timeouts and the demo server's delays pass on the bubble's clock,
// which moves the moment every goroutine waits, so no test waits out a
// real timeout.

func TestRegistryToolTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		short := &ServerConfig{Name: "short", Type: "memory", ToolTimeout: 300 * time.Millisecond}
		long := &ServerConfig{Name: "long", Type: "memory", ToolTimeout: 5 * time.Second}
		// The session's own bound is shorter than long's toolTimeout: the
		// toolTimeout wins for that server.
		r := newInMemoryServers(t, &inMemory{}, &Options{Session: &mcpclient.Options{RequestTimeout: 200 * time.Millisecond}}, short, long)
		args := map[string]int{"steps": 5, "delayMs": 100} // 500 ms
		start := time.Now()
		if _, err := r.Call(ctx10(t), "mcp__short__slow", args); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("short: %v", err)
		}
		if d := time.Since(start); d != short.ToolTimeout {
			t.Errorf("the short call took %v, want its toolTimeout %v", d, short.ToolTimeout)
		}
		start = time.Now()
		if res, err := r.Call(ctx10(t), "mcp__long__slow", args); err != nil || res.IsError {
			t.Errorf("long: %+v %v", res, err)
		}
		if d := time.Since(start); d != 500*time.Millisecond {
			t.Errorf("the long call took %v, want the tool's 500ms", d)
		}
	})
}

func TestRegistryRefreshesAfterListChanged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newInMemory(t, &inMemory{}, nil, "d")
		tools, _ := r.Tools(ctx10(t))
		if hasTool(tools, "mcp__d__dynamic") {
			t.Fatal("dynamic listed before change")
		}
		if _, err := r.Call(ctx10(t), "mcp__d__change", nil); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // the notification is in and handled
		tools, _ = r.Tools(ctx10(t))
		if !hasTool(tools, "mcp__d__dynamic") {
			t.Fatal("the listing did not pick up the change")
		}
		// Many concurrent callers share one refresh and all see the same list.
		r.Call(ctx10(t), "mcp__d__change", nil)
		synctest.Wait()
		var wg sync.WaitGroup
		for range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tools, err := r.Tools(ctx10(t))
				if err != nil || hasTool(tools, "mcp__d__dynamic") {
					t.Errorf("dynamic listed after its removal (%v)", err)
				}
			}()
		}
		wg.Wait()
	})
}

// The startup timeout covers the first listing: a server hung in
// tools/list holds New and Add no longer than its timeout, and Add leaves
// no trace of it.
func TestStartupTimeoutCoversTheFirstListing(t *testing.T) {
	synctest.Test(t, testStartupTimeoutCoversTheFirstListing)
}

func testStartupTimeoutCoversTheFirstListing(t *testing.T) {
	opts := &Options{Dial: hungLister(t), StartupTimeout: 200 * time.Millisecond}
	start := time.Now()
	r, err := New(ctx10(t), &Config{Servers: []*ServerConfig{{Name: "hung", Type: "memory"}}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if d := time.Since(start); d != opts.StartupTimeout {
		t.Errorf("New took %v with a 200ms startup timeout", d)
	}
	if st := r.Servers()[0]; st.ListErr == nil {
		t.Errorf("status: %+v, want the listing's failure", st)
	}
	start = time.Now()
	if err := r.Add(ctx10(t), &ServerConfig{Name: "late", Type: "memory"}); err == nil {
		t.Error("Add of a server that cannot list succeeded")
	}
	if d := time.Since(start); d != opts.StartupTimeout {
		t.Errorf("Add took %v with a 200ms startup timeout", d)
	}
	if len(r.Servers()) != 1 {
		t.Errorf("a failed Add left a server behind: %+v", r.Servers())
	}
}

// A server that never answers initialize fails when its startup timeout
// ends, exactly then, and holds back no other server.
func TestRegistryStartupTimeout(t *testing.T) {
	synctest.Test(t, testRegistryStartupTimeout)
}

func testRegistryStartupTimeout(t *testing.T) {
	m := &inMemory{}
	hung := hungIn(t, "initialize")
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		if sc.Name == "hung" {
			return hung(ctx, sc, opts)
		}
		return m.dial(ctx, sc, opts)
	}
	timeout := 200 * time.Millisecond
	start := time.Now()
	r := newInMemoryServers(t, m, &Options{Dial: dial},
		&ServerConfig{Name: "hung", Type: "memory", Timeout: timeout}, memConfig("ok"))
	if d := time.Since(start); d != timeout {
		t.Errorf("New took %v, want the hung server's timeout %v", d, timeout)
	}
	s := r.Servers()[0]
	if s.State != StateFailed || s.Err == nil || !strings.Contains(s.Err.Error(), `"hung"`) || !errors.Is(s.Err, context.DeadlineExceeded) || !errors.Is(s.Err, ErrUnavailable) {
		t.Errorf("hung server: %+v", s)
	}
	if s := r.Servers()[1]; s.State != StateConnected {
		t.Errorf("a hung server held back another: %+v", s)
	}
}

// The hooks are symmetric: an Add that is rolled back is heard of by no
// hook; OnConnect comes once the server is in Servers; a clean Close ends
// each session with ErrRegistryClosed, which a host tells from a failure.
func TestHooksAreSymmetric(t *testing.T) {
	synctest.Test(t, testHooksAreSymmetric)
}

func testHooksAreSymmetric(t *testing.T) {
	var mu sync.Mutex
	var events []string
	var r *Registry
	m := &inMemory{}
	hung := hungLister(t)
	opts := &Options{
		Dial: func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
			if sc.Name == "hung" {
				return hung(ctx, sc, opts)
			}
			return m.dial(ctx, sc, opts)
		},
		OnConnect: func(st ServerStatus) {
			visible := slices.ContainsFunc(r.Servers(), func(s ServerStatus) bool { return s.Name == st.Name })
			mu.Lock()
			events = append(events, "connect "+st.Name+map[bool]string{true: " visible", false: " invisible"}[visible])
			mu.Unlock()
		},
		OnDisconnect: func(server string, err error) {
			why := "failure"
			if errors.Is(err, ErrRegistryClosed) {
				why = "closed"
			}
			mu.Lock()
			events = append(events, "disconnect "+server+" "+why)
			mu.Unlock()
		},
	}
	r = newInMemory(t, m, opts)
	if err := r.Add(ctx10(t), &ServerConfig{Name: "hung", Type: "memory", Timeout: 100 * time.Millisecond}); err == nil {
		t.Fatal("Add of a server that never lists succeeded")
	}
	if err := r.Add(ctx10(t), &ServerConfig{Name: "a", Type: "memory"}); err != nil {
		t.Fatal(err)
	}
	r.Close()
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"connect a visible", "disconnect a closed"}; !slices.Equal(events, want) {
		t.Errorf("hooks heard %q, want %q", events, want)
	}
}
