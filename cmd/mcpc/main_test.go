package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// mcpc's tests configure real stdio servers: the test binary re-executes
// itself as the demo server when this variable is set, taking the flags of
// parseDemoFlags. Where the process is not what a test is about, the cli's
// serve (demoInProcess) serves the same entry in the test's process.
const demoEnv = "PLAINMCP_MCPC_DEMO"

// mcpcEnv makes the test binary mcpc itself, signals and all: the tests
// of what happens when mcpc is killed run it so.
const mcpcEnv = "PLAINMCP_MCPC_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(demoEnv) != "" {
		childexit.Exit(serveDemo(os.Args[1:]))
	}
	if os.Getenv(mcpcEnv) != "" {
		childexit.Exit(runWithSignals(os.Args[1:]))
	}
	// Without --config, mcpc reads Claude Code's ~/.claude.json: the tests
	// get an empty home of their own, never the user's.
	home, err := os.MkdirTemp("", "mcpc-test-home")
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"HOME", "USERPROFILE", "home"} {
		os.Setenv(name, home)
	}
	// The tests' projects are approved, as by a user who said so in
	// Claude Code's settings; the trust model's own tests make a home
	// without it.
	trustAll(home)
	os.Unsetenv("CLAUDE_CONFIG_DIR")
	os.Unsetenv("XDG_CONFIG_HOME") // the token file's directory
	os.Unsetenv("XDG_CACHE_HOME")  // the era cache's
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// testBinary is the path of this test binary, which serves the demo.
func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// demoEntry is a .mcp.json server entry running the demo server with args
// (in process, where demoInProcess serves it).
func demoEntry(t *testing.T, args ...string) map[string]any {
	return map[string]any{
		"command": testBinary(t),
		"args":    append([]string{}, args...),
		// A race-enabled binary otherwise sleeps a second as it exits.
		"env": map[string]string{demoEnv: "1", "GORACE": "atexit_sleep_ms=0"},
	}
}

// writeConfig writes {"mcpServers": servers} to dir/name and returns its path.
func writeConfig(t *testing.T, dir, name string, servers map[string]any) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// demoDir is a directory whose .mcp.json has the servers "demo" and
// "pages", as the repository's own .mcp.json does.
func demoDir(t *testing.T) string {
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{
		"demo":  demoEntry(t),
		"pages": demoEntry(t, "-page-size", "3", "-extra-tools", "5"),
	})
	return dir
}

// result is what one run of mcpc did.
type result struct {
	code           int
	stdout, stderr string
}

// runIn runs mcpc in dir with stdin, bounded by a timeout.
func runIn(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr}
	code := c.run(ctx, args)
	return result{code, stdout.String(), stderr.String()}
}

// want checks the exit code, and that stderr holds errs if the code is not
// 0; it reports the run in full when it fails.
func (r result) want(t *testing.T, code int, errs ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
		return
	}
	for _, e := range errs {
		if !strings.Contains(r.stderr, e) {
			t.Errorf("stderr %q does not contain %q", r.stderr, e)
		}
	}
	lines := 0
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(l, "mcpc: ") && !strings.HasPrefix(l, "mcpc: warning: ") {
			lines++
		}
	}
	if wantLines := min(code, 1); lines != wantLines {
		t.Errorf("stderr has %d lines from mcpc, want %d: %q", lines, wantLines, r.stderr)
	}
}

// decode parses stdout as JSON into v.
func (r result) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.stdout), v); err != nil {
		t.Fatalf("stdout is not the JSON wanted: %v\n%s", err, r.stdout)
	}
}

// watchWriter is a stderr that tells when a string first appears in it.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.seen != nil && strings.Contains(w.buf.String(), w.want) {
		close(w.seen)
		w.seen = nil
	}
	return len(p), nil
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestInterruptCancelsTheCallAndExits130(t *testing.T) {
	leakcheck.Check(t)
	dir := demoDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan struct{})
	stderr := &watchWriter{want: "progress:", seen: seen}
	var stdout bytes.Buffer
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(""), stdout: &stdout, stderr: stderr}
	done := make(chan int, 1)
	go func() {
		done <- c.run(ctx, []string{"--trace", "--progress", "call", "mcp__demo__slow", `{"steps":50,"delayMs":100}`})
	}()
	select {
	case <-seen:
	case code := <-done:
		t.Fatalf("mcpc ended before any progress, with %d:\n%s", code, stderr)
	case <-time.After(15 * time.Second):
		t.Fatalf("no progress reported:\n%s", stderr)
	}
	cancel()
	start := time.Now()
	select {
	case code := <-done:
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("mcpc took %v to exit after the interrupt", d)
		}
		if code != exitInterrupted {
			t.Errorf("exit code %d, want %d", code, exitInterrupted)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("mcpc did not exit after the interrupt")
	}
	got := stderr.String()
	if !strings.HasSuffix(got, "mcpc: interrupted\n") {
		t.Errorf("stderr does not end with the interrupt line:\n%s", got)
	}
	if !strings.Contains(got, `[demo] -> {"jsonrpc":"2.0","method":"notifications/cancelled"`) {
		t.Errorf("the server was not told of the cancellation:\n%s", got)
	}
	if strings.Contains(got, "done after") || stdout.Len() > 0 {
		t.Errorf("the call ran to its end: %q", stdout.String())
	}
}

// trustAll writes the user settings of Claude Code, under home, that
// approve every project's .mcp.json servers.
func trustAll(home string) {
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"enableAllProjectMcpServers": true}`), 0o600); err != nil {
		panic(err)
	}
}
