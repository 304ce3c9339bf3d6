package mcpclient

import (
	"bufio"
	"bytes"
	"context"
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
// prints its VmRSS and VmHWM from /proc/self/status. The client is ours —
// a Session with default options, which detects the era — or the
// hand-written floor of bench_era_test.go; the server is of either era.
//
// Bytes allocated per small call need no process of their own: they are
// the B/op of BenchmarkCallToolStdio against BenchmarkCallToolStdioFloor,
// and per era of BenchmarkEra/echo against BenchmarkEraFloor/echo.

// memMeasures are what BenchmarkMem measures: the resident set right
// after connecting, and its peak over memCalls results of 1 MiB.
var memMeasures = []struct {
	name  string
	calls int
	field string // of /proc/self/status
	unit  string
}{
	{"connect", 0, "VmRSS", "rss-KiB"},
	{"peak1MiB", memCalls, "VmHWM", "peak-KiB"},
}

// memCalls is how many calls of tool "big" the peak measurement makes.
const memCalls = 50

func BenchmarkMem(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("the resident set is read from /proc/self/status (Linux only)")
	}
	for _, m := range memMeasures {
		b.Run(m.name, func(b *testing.B) {
			for _, client := range []string{"ours", "floor"} {
				b.Run(client, func(b *testing.B) {
					for _, era := range benchEras {
						b.Run(era.String(), func(b *testing.B) {
							var sum int64
							for i := 0; i < b.N; i++ {
								got, err := runMemClient(client, era, m.calls)
								if err != nil {
									b.Fatal(err)
								}
								sum += got[m.field]
							}
							b.ReportMetric(float64(sum)/float64(b.N), m.unit)
						})
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
	if got["VmRSS"] == 0 || got["VmHWM"] == 0 {
		return nil, fmt.Errorf("memory client %s %s printed %q", client, era, out)
	}
	return got, nil
}

// memClient is the "mem-client" mode: args are the client ("ours" or
// "floor"), the era of the server ("handshake" or "stateless") and how
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
	default:
		return fmt.Errorf("unknown client %q", args[0])
	}
	runtime.GC()
	rss, err := procStatus("VmRSS")
	if err != nil {
		return err
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
	fmt.Printf("VmRSS %d\nVmHWM %d\n", rss, peak)
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
