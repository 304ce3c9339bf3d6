package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// roundTrip writes frame and reads one frame back.
func roundTrip(t *testing.T, s *Stdio, frame string) string {
	t.Helper()
	if err := s.Write(context.Background(), []byte(frame)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got, err := readWithin(t, s, 10*time.Second)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return string(got)
}

func TestStdioEchoRoundTrip(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "echo", StdioConfig{})
	for i := range 3 {
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)
		if got := roundTrip(t, s, want); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if got, want := s.Stats(), (LineStats{Frames: 3}); got != want {
		t.Errorf("Stats: got %+v, want %+v", got, want)
	}
}

func TestStdioSkipsBannersAndLogs(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "banners", StdioConfig{})
	for i := range 2 {
		want := fmt.Sprintf(`{"id":%d}`, i)
		if got := roundTrip(t, s, want); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
	// The banner, the blank line and two log lines.
	if got, want := s.Stats(), (LineStats{Frames: 2, Skipped: 4}); got != want {
		t.Errorf("Stats: got %+v, want %+v", got, want)
	}
}

// countWriter counts the bytes written to it.
type countWriter struct{ n atomic.Int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n.Add(int64(len(p)))
	return len(p), nil
}

func TestStdioStderrFloodDoesNotDeadlock(t *testing.T) {
	checkLeaks(t)
	var copied countWriter
	s := startFake(t, "flood", StdioConfig{Stderr: &copied})
	want := `{"id":1}`
	if got := roundTrip(t, s, want); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	tail := s.tail.String()
	if !strings.HasSuffix(tail, "flood-end\n") || len(tail) != 16<<10 {
		t.Errorf("StderrTail: got %d bytes ending %q, want 16 KiB ending in flood-end", len(tail), tail[max(0, len(tail)-20):])
	}
	if got, want := copied.n.Load(), int64(floodSize/1024*1024+len("flood-end\n")); got != want {
		t.Errorf("bytes copied to Stderr: got %d, want %d", got, want)
	}
}

func TestStdioLargeResponse(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "big", StdioConfig{})
	got := roundTrip(t, s, `{"id":1}`)
	if len(got) != bigLine || !strings.HasPrefix(got, `{"big":"bbb`) || !strings.HasSuffix(got, `bbb"}`) {
		t.Errorf("got a %d-byte frame starting %q, want %d bytes", len(got), got[:min(len(got), 20)], bigLine)
	}
}

func TestStdioExitStatusQuotesStderr(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "exit3", StdioConfig{})
	_, err := readWithin(t, s, 5*time.Second)
	var exit *ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("Read: got %v, want an *ExitError", err)
	}
	if exit.Code != 3 || exit.Signal != 0 {
		t.Errorf("got code %d signal %d, want code 3", exit.Code, exit.Signal)
	}
	for _, want := range []string{"status 3", "fatal: config file missing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if want := "starting up\nfatal: config file missing\n"; exit.Stderr != want {
		t.Errorf("Stderr: got %q, want %q", exit.Stderr, want)
	}
	// The end is final: Read says the same again, and Exited has fired.
	if _, again := s.Read(); again == nil || again.Error() != err.Error() {
		t.Errorf("second Read: got %v, want %v", again, err)
	}
	select {
	case <-s.exited:
	default:
		t.Error("Exited is not closed after Read reported the exit")
	}
}

func TestStdioExitBeforeReply(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "exit-before-reply", StdioConfig{})
	if err := s.Write(context.Background(), []byte(`{"id":1}`)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	_, err := readWithin(t, s, 5*time.Second)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 0 || !strings.Contains(err.Error(), "bye") {
		t.Errorf("Read: got %v, want an *ExitError with status 0 quoting stderr", err)
	}
}

func TestStdioWriteAfterExit(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "exit3", StdioConfig{})
	<-s.exited
	done := make(chan error, 1)
	go func() { done <- s.Write(context.Background(), []byte(`{"id":1}`)) }()
	select {
	case err := <-done:
		var exit *ExitError
		if !errors.As(err, &exit) || exit.Code != 3 {
			t.Errorf("Write: got %v, want an *ExitError with status 3", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Write after the exit did not return")
	}
}

func TestStdioEnv(t *testing.T) {
	t.Setenv("PLAINMCP_SECRET", "hunter2")
	for _, tc := range []struct {
		name    string
		inherit bool
		want    string
	}{
		{"safe set by default", false, ""},
		{"inherit everything", true, "hunter2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			s := startFake(t, "info", StdioConfig{InheritEnv: tc.inherit, Env: []string{"PLAINMCP_EXTRA=x=1"}})
			info := readInfo(t, s)
			want := map[string]string{"secret": tc.want, "extra": "x=1", "path": os.Getenv("PATH")}
			delete(info, "dir")
			if diff := cmp.Diff(want, info); diff != "" {
				t.Errorf("server environment (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStdioDir(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	s := startFake(t, "info", StdioConfig{Dir: dir})
	got, err := filepath.EvalSymlinks(readInfo(t, s)["dir"])
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if got != want {
		t.Errorf("working directory: got %s, want %s", got, want)
	}
}

func readInfo(t *testing.T, s *Stdio) map[string]string {
	t.Helper()
	frame, err := readWithin(t, s, 5*time.Second)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	var info map[string]string
	if err := json.Unmarshal(frame, &info); err != nil {
		t.Fatalf("decoding %s: %v", frame, err)
	}
	return info
}

func TestStdioCloseConcurrent(t *testing.T) {
	checkLeaks(t)
	s := startFake(t, "echo", StdioConfig{})
	reading := make(chan error, 1)
	go func() {
		_, err := s.Read()
		reading <- err
	}()

	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Close()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Close #%d: %v", i, err)
		}
	}
	if err := <-reading; !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Read blocked during Close: got %v, want ErrClosed", err)
	}
	if _, err := s.Read(); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Read after Close: got %v, want ErrClosed", err)
	}
	if err := s.Write(context.Background(), []byte(`{}`)); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Write after Close: got %v, want ErrClosed", err)
	}
}

func TestStartStdioErrors(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		name string
		cfg  StdioConfig
		want string
	}{
		{"no command", StdioConfig{}, "no command"},
		{"bad env entry", StdioConfig{Command: "true", Env: []string{"NOVALUE"}}, `"NOVALUE" is not KEY=VALUE`},
		{"missing program", StdioConfig{Command: "plainmcp-no-such-program"}, "plainmcp-no-such-program"},
		{"missing dir", StdioConfig{Command: os.Args[0], Dir: filepath.Join(t.TempDir(), "gone")}, "gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := StartStdio(tc.cfg)
			if err == nil {
				s.Close()
				t.Fatal("StartStdio: got no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q, want it to mention %q", err, tc.want)
			}
		})
	}
}
