package mcpclient

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// startRaw runs the test binary as a raw server in the given mode.
func startRaw(t *testing.T, mode string, env ...string) *transport.Stdio {
	t.Helper()
	s, err := transport.StartStdio(transport.StdioConfig{
		Command:    os.Args[0],
		Env:        append([]string{serverModeEnv + "=" + mode, "GORACE=atexit_sleep_ms=0"}, env...),
		CloseDelay: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func connectRaw(t *testing.T, mode string, opts *Options, env ...string) *Session {
	t.Helper()
	checkGoroutines(t)
	s, err := Connect(ctx5s(t), startRaw(t, mode, env...), opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStdioServerExitsBeforeInitialize(t *testing.T) {
	checkGoroutines(t)
	_, err := Connect(ctx5s(t), startRaw(t, "exit-before-init"), nil)
	var exit *transport.ExitError
	if !errors.As(err, &exit) || exit.Code != 3 {
		t.Fatalf("err = %v, want an ExitError with status 3", err)
	}
	if !strings.Contains(err.Error(), "status 3") || !strings.Contains(err.Error(), "config file /etc/demo.toml is missing") {
		t.Errorf("error does not quote the exit status and stderr: %v", err)
	}
}

func TestStdioServerDiesDuringCall(t *testing.T) {
	s := connectRaw(t, "die-during-call", nil)
	start := time.Now()
	_, err := s.CallTool(context.Background(), "x", nil)
	if d := time.Since(start); d > time.Second {
		t.Errorf("call failed after %v, want under a second", d)
	}
	if !errors.Is(err, jsonrpc.ErrDisconnected) || !strings.Contains(err.Error(), "status 2") || !strings.Contains(err.Error(), "index out of range") {
		t.Errorf("err = %v", err)
	}
}

func TestStdioServerNeverAnswers(t *testing.T) {
	s := connectRaw(t, "never-answer", &Options{RequestTimeout: 150 * time.Millisecond})
	if _, err := s.CallTool(context.Background(), "x", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("default timeout: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.CallTool(ctx, "x", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller's deadline: %v", err)
	}
}

func TestStdioBannersOnStdout(t *testing.T) {
	s := connectRaw(t, "banners", nil)
	res, err := s.CallTool(ctx5s(t), "x", nil)
	if err != nil || res.Text() != "ok despite the noise" {
		t.Errorf("%+v %v", res, err)
	}
}

func TestStdioStderrFlood(t *testing.T) {
	s := connectRaw(t, "flood-stderr", nil)
	res, err := s.CallTool(ctx5s(t), "x", nil)
	if err != nil || res.Text() != "ok after the flood" {
		t.Errorf("%+v %v", res, err)
	}
}

// hugeText is the length of the text the huge-line server answers with:
// above the line reader's 4 MiB kept buffer and far above any KiB-sized
// limit. transport's tests take such lines through the default limit;
// here, under -race, every MiB through the decode costs a quarter second.
const hugeText = 5<<20 + 17

func TestStdioHugeResponseLine(t *testing.T) {
	s := connectRaw(t, "huge-line", nil)
	// A bound for a hung call, not a speed target (a loaded machine
	// needed more than 5 s for 20 MiB).
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.CallTool(ctx, "x", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Text()); n != hugeText {
		t.Errorf("got %d bytes of text, want %d", n, hugeText)
	}
}

// An answer nested deeper than any decoder goes ends its call at once over
// stdio too, with an error matching rpcwire.ErrBadResponse, not a timeout.
func TestStdioDeepAnswerEndsItsCall(t *testing.T) {
	s := connectRaw(t, "deep", nil)
	_, err := s.CallTool(ctx5s(t), "x", nil)
	if !errors.Is(err, rpcwire.ErrBadResponse) {
		t.Fatalf("got %v", err)
	}
}

func TestStdioMalformedDuplicateAndUnknownResponses(t *testing.T) {
	s := connectRaw(t, "malformed", nil)
	res, err := s.CallTool(ctx5s(t), "x", nil)
	if err != nil || res.Text() != "the real answer" {
		t.Fatalf("%+v %v", res, err)
	}
	if err := s.Ping(ctx5s(t)); !errors.Is(err, jsonrpc.ErrMethodNotFound) {
		t.Errorf("session after bad frames: %v", err)
	}
}

func TestStdioUnknownServerRequest(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "trace")
	if err != nil {
		t.Fatal(err)
	}
	checkGoroutines(t)
	stream := transport.Trace(startRaw(t, "unknown-request"), f, "")
	s, err := Connect(ctx5s(t), stream, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CallTool(ctx5s(t), "x", nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	trace, _ := os.ReadFile(f.Name())
	if !strings.Contains(string(trace), `-> {"jsonrpc":"2.0","id":"srv-1","error":{"code":-32601,"message":"method not found: frobnicate/now"}}`) {
		t.Errorf("no method-not-found answer in the trace:\n%s", trace)
	}
}

func TestStdioCloseStubbornServer(t *testing.T) {
	checkGoroutines(t)
	proc := startRaw(t, "ignore-term")
	s, err := Connect(ctx5s(t), proc, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Logf("Close: %v", err)
	}
	// close stdin → 200ms → SIGTERM (ignored) → 200ms → SIGKILL
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v", d)
	}
	waitGone(t, proc.Pid())
}

func TestStdioChildHoldsStdout(t *testing.T) {
	pidFile := t.TempDir() + "/pid"
	s := connectRaw(t, "child-holds-stdout", nil, "PLAINMCP_TEST_PIDFILE="+pidFile)
	start := time.Now()
	s.Close()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v", d)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(raw))
	waitGone(t, pid)
}
