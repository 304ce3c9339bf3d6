package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/transport"
)

// Memory against the floor. A resident set cannot be measured inside the
// benchmark's own process, which holds the test runner and whatever the
// benchmarks before it left behind, so each measurement re-executes the
// test binary as a client ("mem-client" mode, see main_test.go) that
// starts its own bench server (the test binary once more), connects, and
// prints its VmRSS (with its RssAnon and RssFile parts) and VmHWM from
// /proc/self/status. The client is ours — a Session with default options,
// which detects the era — or the hand-written floor of bench_era_test.go;
// the server is of either era. BenchmarkMem/baseline is the test binary
// connecting to nothing: most of every figure is that binary's own pages,
// so compare what each client adds to it as well as the totals.
//
// Bytes allocated per small call need no process of their own: they are
// the B/op of BenchmarkCallToolStdio against BenchmarkCallToolStdioFloor,
// and per era of BenchmarkEra/echo against BenchmarkEraFloor/echo.

// memMeasures are what BenchmarkMem measures: the resident set right
// after connecting, and its peak over memCalls results of 1 MiB.
var memMeasures = []struct {
	name   string
	calls  int
	fields map[string]string // unit by field of /proc/self/status
}{
	{"connect", 0, memConnectFields},
	{"peak1MiB", memCalls, map[string]string{"VmHWM": "peak-KiB"}},
}

// memConnectFields are what the baseline and connect measurements report:
// the resident set, and its anonymous (heap, stacks) and file-backed
// (the binary's pages) parts.
var memConnectFields = map[string]string{"VmRSS": "rss-KiB", "RssAnon": "anon-KiB", "RssFile": "file-KiB"}

// reportMem runs b.N memory clients and reports the mean of each field.
func reportMem(b *testing.B, client string, era Era, calls int, fields map[string]string) {
	sum := map[string]int64{}
	for i := 0; i < b.N; i++ {
		got, err := runMemClient(client, era, calls)
		if err != nil {
			b.Fatal(err)
		}
		for field := range fields {
			sum[field] += got[field]
		}
	}
	for field, unit := range fields {
		b.ReportMetric(float64(sum[field])/float64(b.N), unit)
	}
}

// memCalls is how many calls of tool "big" the peak measurement makes.
const memCalls = 50

func BenchmarkMem(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("the resident set is read from /proc/self/status (Linux only)")
	}
	// What the test binary holds doing nothing at all: the part of every
	// figure below that no client can shrink.
	b.Run("baseline", func(b *testing.B) { reportMem(b, "none", EraHandshake, 0, memConnectFields) })
	for _, m := range memMeasures {
		b.Run(m.name, func(b *testing.B) {
			for _, client := range []string{"ours", "floor"} {
				b.Run(client, func(b *testing.B) {
					for _, era := range benchEras {
						b.Run(era.String(), func(b *testing.B) { reportMem(b, client, era, m.calls, m.fields) })
					}
				})
			}
		})
	}
}

// runMemClient runs one memory client to its end and returns what it
// read of its /proc/self/status, in KiB by field name.
func runMemClient(client string, era Era, calls int) (map[string]int64, error) {
	cmd := exec.Command(os.Args[0], client, era.String(), strconv.Itoa(calls))
	cmd.Env = append(os.Environ(), serverModeEnv+"=mem-client", "GORACE=atexit_sleep_ms=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("memory client %s %s: %v: %s", client, era, err, strings.TrimSpace(stderr.String()))
	}
	got := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		field, kib, ok := strings.Cut(line, " ")
		n, err := strconv.ParseInt(kib, 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("memory client %s %s printed %q", client, era, line)
		}
		got[field] = n
	}
	if got["VmRSS"] == 0 || got["RssAnon"] == 0 || got["VmHWM"] == 0 {
		return nil, fmt.Errorf("memory client %s %s printed %q", client, era, out)
	}
	return got, nil
}

// memClient is the "mem-client" mode: args are the client ("ours",
// "floor", or "none" for the baseline), the era of the server ("handshake" or "stateless") and how
// many calls of tool "big" to make. It connects, collects the garbage,
// reads its resident set, makes the calls, and prints "VmRSS <KiB>" (after
// connecting) and "VmHWM <KiB>" (the peak, at the end).
func memClient(args []string) int {
	if err := runMem(args); err != nil {
		fmt.Fprintln(os.Stderr, "mem-client:", err)
		return 1
	}
	return 0
}

func runMem(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("want: ours|floor handshake|stateless calls; got %q", args)
	}
	var era Era
	switch args[1] {
	case "handshake":
		era = EraHandshake
	case "stateless":
		era = EraStateless
	default:
		return fmt.Errorf("unknown era %q", args[1])
	}
	calls, err := strconv.Atoi(args[2])
	if err != nil {
		return err
	}
	var call func() error
	switch args[0] {
	case "ours":
		stream, err := transport.StartStdio(transport.StdioConfig{
			Command:    os.Args[0],
			Env:        []string{serverModeEnv + "=" + benchMode(era), "GORACE=atexit_sleep_ms=0"},
			CloseDelay: 200 * time.Millisecond,
		})
		if err != nil {
			return err
		}
		ctx := context.Background()
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		s, err := Connect(cctx, stream, nil)
		cancel()
		if err != nil {
			return err
		}
		defer s.Close()
		if s.Era() != era {
			return fmt.Errorf("connected in the %s era, want %s", s.Era(), era)
		}
		call = func() error {
			res, err := s.CallTool(ctx, "big", nil)
			if err == nil && (len(res.Content) != 1 || len(res.Content[0].Text) != benchBigText) {
				err = fmt.Errorf("got %d items", len(res.Content))
			}
			return err
		}
	case "floor":
		f, err := dialFloor(era)
		if err != nil {
			return err
		}
		defer f.close()
		meta := floorMetaOf(era)
		call = func() error {
			var res floorEraResult
			err := f.call("tools/call", floorEraCall{Name: "big", Meta: meta}, &res)
			if err == nil && (len(res.Content) != 1 || len(res.Content[0].Text) != benchBigText) {
				err = fmt.Errorf("got %d items", len(res.Content))
			}
			return err
		}
	case "none": // the baseline: no server, no connection
		if calls != 0 {
			return errors.New("client none makes no calls")
		}
	default:
		return fmt.Errorf("unknown client %q", args[0])
	}
	runtime.GC()
	var rss [3]int64 // the resident set, and its anonymous and file-backed parts
	for i, field := range []string{"VmRSS", "RssAnon", "RssFile"} {
		if rss[i], err = procStatus(field); err != nil {
			return err
		}
	}
	for range calls {
		if err := call(); err != nil {
			return err
		}
	}
	peak, err := procStatus("VmHWM")
	if err != nil {
		return err
	}
	fmt.Printf("VmRSS %d\nRssAnon %d\nRssFile %d\nVmHWM %d\n", rss[0], rss[1], rss[2], peak)
	return nil
}

// procStatus reads one "kB" field of /proc/self/status.
func procStatus(field string) (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kib, ok := strings.CutSuffix(strings.TrimSpace(value), " kB")
		if !ok {
			return 0, fmt.Errorf("/proc/self/status: %s is %q", field, value)
		}
		return strconv.ParseInt(kib, 10, 64)
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("/proc/self/status has no %s", field)
}
