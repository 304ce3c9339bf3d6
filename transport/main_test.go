package transport

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/internal/testkit/streamtest"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// helperEnv selects a fake server mode. The stdio tests re-execute the test
// binary with it set, rather than building helper programs.
const helperEnv = "PLAINMCP_TRANSPORT_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		childexit.Exit(fakeServer(mode))
	}
	os.Exit(m.Run())
}

// bigLine is the size of the response the "big" server sends: more than
// the storage a lineReader keeps between long lines (keepAcc), far past any
// 64 KiB scanner, and 80 of its reads. Not more: under -race every MiB
// through a pipe and the reader costs a tenth of a CPU-second.
const bigLine = 5<<20 + 17

// floodSize is how much the "flood" server writes to stderr before each
// reply.
const floodSize = 10 << 20

// fakeServer runs one fake stdio server and returns its exit status. A
// server never lives longer than a minute, even if a test forgets it.
func fakeServer(mode string) int {
	in := bufio.NewReader(os.Stdin)
	out := os.Stdout
	switch mode {
	case "echo":
		echo(in, out, nil)
	case "banners":
		fmt.Fprintln(out, "fake-server v1.0 starting")
		fmt.Fprintln(out)
		echo(in, out, func() { fmt.Fprintln(out, "INFO handling a request") })
	case "flood":
		echo(in, out, func() {
			line := strings.Repeat("e", 1023) + "\n"
			for i := 0; i < floodSize/len(line); i++ {
				io.WriteString(os.Stderr, line)
			}
			io.WriteString(os.Stderr, "flood-end\n")
		})
	case "big":
		for {
			if _, err := in.ReadBytes('\n'); err != nil {
				return 0
			}
			w := bufio.NewWriter(out)
			w.WriteString(`{"big":"`)
			w.WriteString(strings.Repeat("b", bigLine-len(`{"big":""}`)))
			w.WriteString("\"}\n")
			w.Flush()
		}
	case "exit3":
		fmt.Fprintln(os.Stderr, "starting up")
		fmt.Fprintln(os.Stderr, "fatal: config file missing")
		return 3
	case "exit-before-reply":
		in.ReadBytes('\n')
		fmt.Fprintln(os.Stderr, "bye")
		return 0
	case "die":
		p, _ := os.FindProcess(os.Getpid())
		p.Kill()
		time.Sleep(time.Minute) // the subject: SIGKILL lands while it waits, so it never exits by itself
	case "stubborn":
		// Ignores stdin's end and SIGTERM: only SIGKILL stops it.
		signal.Ignore(syscall.SIGTERM)
		fmt.Fprintln(out, `{"ready":true}`)
		io.Copy(io.Discard, in)
		time.Sleep(time.Minute) // the subject: it outlives its stdin's end
	case "grandchild":
		// Starts a process that inherits stdin, stdout and stderr, then
		// exits, leaving the pipes held open.
		exe, _ := os.Executable()
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), helperEnv+"=sleep")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintf(out, "{\"grandchild\":%d}\n", cmd.Process.Pid)
		return 5
	case "sleep":
		time.Sleep(time.Minute) // the subject: a grandchild that holds the pipes and never exits by itself
	case "host":
		return fakeHost(out)
	case "info":
		wd, _ := os.Getwd()
		json.NewEncoder(out).Encode(map[string]string{
			"secret": os.Getenv("PLAINMCP_SECRET"),
			"extra":  os.Getenv("PLAINMCP_EXTRA"),
			"path":   os.Getenv("PATH"),
			"dir":    wd,
		})
	default:
		fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
		return 2
	}
	return 0
}

// fakeHost is a Go host of a stubborn server (one that ignores its stdin's
// end and SIGTERM): it starts the server, says the server's pid, sends a
// request, and waits for an answer that never comes — a host mid-call,
// for the test to kill.
func fakeHost(out io.Writer) int {
	exe, _ := os.Executable()
	s, err := StartStdio(StdioConfig{Command: exe, Env: []string{helperEnv + "=stubborn", "GORACE=atexit_sleep_ms=0"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := s.Read(); err != nil { // {"ready":true}
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Fprintf(out, "%d\n", s.Pid())
	s.Write(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
	s.Read()
	time.Sleep(time.Minute) // the subject: killed before it ends
	return 0
}

// echo writes every line it reads back, calling before (if set) first.
func echo(in *bufio.Reader, out io.Writer, before func()) {
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		if before != nil {
			before()
		}
		out.Write(line)
	}
}

// startFake starts the test binary as the fake server mode, with a short
// CloseDelay unless cfg sets one, and closes it when the test ends.
func startFake(t *testing.T, mode string, cfg StdioConfig) *Stdio {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Command = exe
	// A race-enabled binary otherwise sleeps a second before exiting.
	cfg.Env = append(cfg.Env, helperEnv+"="+mode, "GORACE=atexit_sleep_ms=0")
	if cfg.CloseDelay == 0 {
		cfg.CloseDelay = 200 * time.Millisecond
	}
	s, err := StartStdio(cfg)
	if err != nil {
		t.Fatalf("StartStdio: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// readWithin reads one frame, failing the test if Read takes longer than d.
func readWithin(t *testing.T, s jsonrpc.Stream, d time.Duration) ([]byte, error) {
	t.Helper()
	return streamtest.ReadWithin(t, s, d)
}

func checkLeaks(t *testing.T) { t.Helper(); leakcheck.Check(t) }
