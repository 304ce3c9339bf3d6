package toolreg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/transport"
)

// withEnv returns sc with more environment for its server.
func withEnv(sc *ServerConfig, kv ...string) *ServerConfig {
	for i := 0; i+1 < len(kv); i += 2 {
		sc.Env[kv[i]] = secret.New(kv[i+1])
	}
	return sc
}

func TestRegistryConnectsInParallelDespiteDeadAndSlowServers(t *testing.T) {
	leakcheck.Check(t)
	dead := withEnv(demoConfig("dead"), crashEnv, "fatal: no API key configured")
	// The slow servers are in-memory, ok and dead real processes.
	var slow []*ServerConfig
	for _, name := range []string{"slow1", "slow2", "slow3"} {
		// The timeout bounds a failure only.
		slow = append(slow, &ServerConfig{Name: name, Type: "memory", Timeout: 20 * time.Second})
	}
	// Each slow server's dial waits until all three have begun: one
	// after another, the first would wait out its startup timeout, and
	// fail. No clock decides it.
	var begun sync.WaitGroup
	begun.Add(len(slow))
	m := &inMemory{}
	t.Cleanup(m.wg.Wait) // after the registry's Close
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		if sc.Type != "memory" {
			return DialStdio(ctx, sc, opts)
		}
		begun.Done()
		waited := make(chan struct{})
		go func() { begun.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return m.dial(ctx, sc, opts)
	}
	r := newRegistry(t, &Options{Dial: dial}, append([]*ServerConfig{demoConfig("ok"), dead}, slow...)...)
	got := map[string]ServerStatus{}
	for _, s := range r.Servers() {
		got[s.Name] = s
	}
	for name, transport := range map[string]string{"ok": "stdio", "slow1": "memory", "slow2": "memory", "slow3": "memory"} {
		if got[name].State != StateConnected || got[name].Transport != transport || got[name].ProtocolVersion == "" || got[name].Tools != demoToolCount {
			t.Errorf("%s: %+v", name, got[name])
		}
	}
	if s := got["dead"]; s.State != StateFailed || s.Err == nil || !strings.Contains(s.Err.Error(), "no API key configured") {
		t.Errorf("dead server: %+v (its stderr should be quoted)", s)
	}
	tools, err := r.Tools(ctx10(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mcp__ok__echo", "mcp__slow3__echo"} {
		if !hasTool(tools, name) {
			t.Errorf("%s missing", name)
		}
	}
	if hasTool(tools, "mcp__dead__echo") {
		t.Error("a server that never connected offers tools")
	}
}

func TestRegistryStartupTimeout(t *testing.T) {
	leakcheck.Check(t)
	hung := withEnv(demoConfig("hung"), hungEnv, "1") // never answers
	hung.Timeout = 200 * time.Millisecond
	start := time.Now()
	r := newRegistry(t, nil, hung, demoConfig("ok"))
	// The timeout, then the stdio shutdown the spec asks for: stdin
	// closed, which this server heeds.
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("New took %v", d)
	}
	s := r.Servers()[0]
	if s.State != StateFailed || s.Err == nil || !strings.Contains(s.Err.Error(), `"hung"`) || !errors.Is(s.Err, context.DeadlineExceeded) || !errors.Is(s.Err, ErrUnavailable) {
		t.Errorf("hung server: %+v", s)
	}
	if s := r.Servers()[1]; s.State != StateConnected {
		t.Errorf("a hung server held back another: %+v", s)
	}
}

func TestRegistryReconnectsAfterKill(t *testing.T) {
	leakcheck.Check(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	var mu sync.Mutex
	var disconnects []error
	clock := newFakeClock()
	r := newRegistry(t, &Options{clock: clock.now, OnDisconnect: func(server string, err error) {
		mu.Lock()
		disconnects = append(disconnects, err)
		mu.Unlock()
	}}, withEnv(demoConfig("victim"), pidFileEnv, pidFile))
	if res, err := r.Call(ctx10(t), "mcp__victim__echo", map[string]string{"text": "before"}); err != nil || res.Text() != "before" {
		t.Fatalf("%+v %v", res, err)
	}
	firstPid := readPid(t, pidFile)
	proc, err := os.FindProcess(firstPid)
	if err != nil {
		t.Fatal(err)
	}
	if err := proc.Kill(); err != nil { // SIGKILL: no goodbye
		t.Fatal(err)
	}
	waitFor(t, "the registry to notice the death", func() bool {
		return r.Servers()[0].State == StateReconnecting
	})
	mu.Lock()
	if len(disconnects) != 1 || disconnects[0] == nil {
		t.Errorf("OnDisconnect: %v", disconnects)
	}
	mu.Unlock()
	// Within the backoff, a call fails at once and names the wait; the tool
	// stays listed so that a later call can reconnect.
	if _, err := r.Call(ctx10(t), "mcp__victim__echo", map[string]string{"text": "x"}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "next attempt in") {
		t.Errorf("call during backoff: %v", err)
	}
	tools, _ := r.Tools(ctx10(t))
	if !hasTool(tools, "mcp__victim__echo") {
		t.Error("a reconnecting server's tools left the listing")
	}
	clock.advance(firstBackoff)
	res, err := r.Call(ctx10(t), "mcp__victim__echo", map[string]string{"text": "after"})
	if err != nil || res.Text() != "after" {
		t.Fatalf("call after the backoff: %+v %v", res, err)
	}
	if pid := readPid(t, pidFile); pid == firstPid {
		t.Error("no new server process was started")
	}
	if s := r.Servers()[0]; s.State != StateConnected || s.Err != nil {
		t.Errorf("after reconnecting: %+v", s)
	}
}

func TestRegistryDoesNotHammerACrashLoop(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	// A shell wrapper touches a file of its own in dir at each start of the
	// server, so starts can be counted.
	starts := func() int {
		entries, _ := os.ReadDir(dir)
		return len(entries)
	}
	sc := withEnv(demoConfig("loop"), crashEnv, "crashing on start")
	sc.Command, sc.Args = "/bin/sh", []string{"-c", `touch "$0/start.$$"; exec "$1"`, dir, os.Args[0]}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh to count starts")
	}
	clock := newFakeClock()
	r := newRegistry(t, &Options{clock: clock.now}, sc)
	if n := starts(); n != 1 {
		t.Fatalf("%d starts at New", n)
	}
	for range 20 {
		_, err := r.Session(ctx10(t), "loop")
		if err == nil || !strings.Contains(err.Error(), "crashing on start") {
			t.Fatalf("session of a crashing server: %v", err)
		}
	}
	if n := starts(); n != 1 {
		t.Errorf("%d starts within the first backoff: the server is hammered", n)
	}
	clock.advance(firstBackoff)
	r.Session(ctx10(t), "loop")
	_, err := r.Session(ctx10(t), "loop")
	if n := starts(); n != 2 {
		t.Errorf("%d starts after one backoff, want 2", n)
	}
	// The backoff doubles: the next try is about 2 s away.
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

func readPid(t *testing.T, file string) int {
	t.Helper()
	var pid int
	waitFor(t, "the server's pid file", func() bool {
		b, err := os.ReadFile(file)
		pid, _ = strconv.Atoi(string(b))
		return err == nil && pid > 0
	})
	return pid
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// One server, one process: calls that all find the server dead once its
// backoff has passed start one new process between them, not one each,
// and Close leaves none behind.
func TestRegistryReconnectStartsOneProcess(t *testing.T) {
	leakcheck.Check(t)
	pids := t.TempDir()
	clock := newFakeClock()
	r, err := New(ctx10(t), &Config{Servers: []*ServerConfig{withEnv(demoConfig("one"), pidDirEnv, pids)}}, &Options{clock: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	started := func() []int {
		entries, _ := os.ReadDir(pids)
		var out []int
		for _, e := range entries {
			if pid, err := strconv.Atoi(e.Name()); err == nil {
				out = append(out, pid)
			}
		}
		return out
	}
	if n := len(started()); n != 1 {
		t.Fatalf("%d processes at start", n)
	}
	proc, _ := os.FindProcess(started()[0])
	proc.Kill()
	waitFor(t, "the registry to notice the death", func() bool { return r.Servers()[0].State == StateReconnecting })
	clock.advance(firstBackoff)

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
	if n := len(started()); n != 2 {
		t.Errorf("50 concurrent calls after a crash started %d processes in all, want 2", n)
	}
	r.Close()
	for _, pid := range started() {
		p, err := os.FindProcess(pid)
		if err == nil && p.Signal(syscall.Signal(0)) == nil {
			waitFor(t, fmt.Sprintf("process %d to be gone", pid), func() bool { return p.Signal(syscall.Signal(0)) != nil })
		}
	}
}

// Hooks and the approver run with no lock held: each may call the
// registry, also on a reconnect.
func TestHooksMayCallTheRegistry(t *testing.T) {
	leakcheck.Check(t)
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
	clock := newFakeClock()
	opts := &Options{
		clock:        clock.now,
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
		session.Close() // the server is gone
		waitFor(t, "the death", func() bool { return r.Servers()[0].State == StateReconnecting })
		clock.advance(firstBackoff)
		if _, err := r.Call(ctx10(t), "mcp__h__echo", map[string]string{"text": "b"}); err != nil {
			t.Errorf("call after reconnecting: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("deadlock: a hook that calls the registry never returned")
	}
	// OnConnect runs in its turn, after the call that reconnected.
	waitFor(t, "OnConnect", func() bool { mu.Lock(); defer mu.Unlock(); return seen["OnConnect"] > 0 })
	mu.Lock()
	defer mu.Unlock()
	for _, hook := range []string{"OnConnect", "OnDisconnect", "OnToolCall", "Approve"} {
		if seen[hook] == 0 {
			t.Errorf("%s never ran", hook)
		}
	}
}

// hungLister dials an in-process server that answers initialize and
// never answers tools/list.
func hungLister(t *testing.T) func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	return func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		conn := jsonrpc.NewConn(server, &jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			switch req.Method {
			case "initialize":
				return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hung","version":"1"}}`), nil
			case "tools/list":
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return nil, jsonrpc.ErrMethodNotFound
		}})
		t.Cleanup(func() { conn.Close() })
		return mcpclient.Connect(ctx, client, opts)
	}
}
