package streamhttp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The benchmarks of this package put the Streamable HTTP transport under
// load beside a floor. There are two families:
//
//	BenchmarkHTTPTable/{row}/{era}-{body}    every row of the README's HTTP
//	BenchmarkHTTPTableFloor/…                table (bench_table_test.go),
//	                                         the server in a process of its own
//	BenchmarkHTTPCall/{era}/{body}/{mode}    the calls of this file, the
//	BenchmarkHTTPCallFloor/…                 server in this process
//	BenchmarkHTTPServerOnly/{body}           what that server costs per call
//
// The table is what to compare: make bench-http (scripts/bench-http.sh)
// runs each of its benchmarks and the floor's one after the other, three
// rounds, and prints the median ratios as the README prints them; with
// the server apart, this process's CPU time and allocations are the
// client's alone and the server's CPU time is measured by the server
// (bench_proc_test.go). TestBenchClientsSendTheSame checks that both
// sides send the server the same bytes.
//
// Both families run plainmcp as a jsonrpc.Conn over Dial's Stream, set to
// the era as mcpclient sets it after its handshake, and in the stateless
// era telling the transport what each request names and sending _meta
// as a session does (the session itself cannot be used here: transport
// packages may not import mcpclient). The floor (bench_floor_test.go) is
// net/http by hand with one tuned http.Transport (512 idle connections
// per host): marshal the request, POST it with the headers of the era,
// read the JSON body or the one SSE event on the calling goroutine,
// decode with encoding/json, and read every body to its end so that its
// connection is reused.
//
// The rest of this comment is about BenchmarkHTTPCall.
//
// The modes:
//
//	seq          one call at a time, context.Background()
//	seq-timeout  one call at a time, each under a context of its own
//	             that is cancelled when the call returns (as callers
//	             with a deadline do)
//	inflight256  each iteration is 256 calls at once
//
// Besides ns/op, B/op and allocs/op (per iteration: 256 calls in
// inflight256), each reports calls/s, ns/call, B/call and allocs/call,
// and the TCP connections the server accepted during the run: conns (in
// all) and conns/call. The server's own work is in every figure;
// BenchmarkHTTPServerOnly measures it alone, with a client that costs
// next to nothing, so that it can be subtracted from both sides.
//
// A comparable run (a fixed number of iterations, so that conns compare
// as they are):
//
//	go test -run '^$' -bench 'HTTPCall/././seq' -benchtime 2000x ./transport/streamhttp
//	go test -run '^$' -bench 'HTTPCall/././inflight256' -benchtime 20x ./transport/streamhttp
//
// On a shared machine calls/s varies by ±15% from run to run: to compare
// with the floor, run each benchmark and its floor one after the other
// (alternating which goes first), a few rounds, and take the median of
// the ratios, e.g. with a compiled test binary:
//
//	for r in 1 2 3 4 5 6 7; do for b in HTTPCall HTTPCallFloor; do
//	  ./streamhttp.test -test.run '^$' -test.benchtime 2000x \
//	    -test.bench "^Benchmark$b\$/^stateless\$/^sse\$/^seq\$"
//	done; done
//
// conns counts connections opened while the clock runs; ours reads an
// event stream's rest in the background after handing on its response, so
// one sequential run may open one connection more than the floor, which
// reads it before returning: compare conns/call, not conns, between runs.

const benchInFlight = 256

var benchModes = []string{"seq", "seq-timeout", "inflight256"}

// benchEras are the sub-benchmarks' first level.
var benchEras = []struct {
	name      string
	stateless bool
}{{"handshake", false}, {"stateless", true}}

var benchBodies = []struct {
	name string
	sse  bool
}{{"json", false}, {"sse", true}}

// runBench runs one mode of calls; call makes one call and checks it.
func runBench(b *testing.B, srv *benchServer, mode string, call func(ctx context.Context) error) {
	per := 1
	if mode == "inflight256" {
		per = benchInFlight
	}
	one := func() error {
		if mode != "seq-timeout" {
			return call(context.Background())
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		return call(ctx)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	conns := srv.conns.Load()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if per == 1 {
			if err := one(); err != nil {
				b.Fatal(err)
			}
			continue
		}
		var wg sync.WaitGroup
		var failed atomic.Pointer[error]
		wg.Add(per)
		for range per {
			go func() {
				defer wg.Done()
				if err := one(); err != nil {
					failed.CompareAndSwap(nil, &err)
				}
			}()
		}
		wg.Wait()
		if err := failed.Load(); err != nil {
			b.Fatal(*err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	calls := float64(b.N * per)
	opened := float64(srv.conns.Load() - conns)
	b.ReportMetric(opened, "conns")
	b.ReportMetric(opened/calls, "conns/call")
	b.ReportMetric(calls/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/calls, "ns/call")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/calls, "B/call")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/calls, "allocs/call")
}

// BenchmarkHTTPCall is plainmcp's transport: a jsonrpc.Conn over Dial's
// Stream, as a session uses it after its handshake.
func BenchmarkHTTPCall(b *testing.B) {
	for _, era := range benchEras {
		for _, body := range benchBodies {
			for _, mode := range benchModes {
				b.Run(era.name+"/"+body.name+"/"+mode, func(b *testing.B) {
					srv := newBenchServer(b, body.sse, era.stateless)
					c := dialBench(b, srv, era.stateless)
					runBench(b, srv, mode, func(ctx context.Context) error {
						return c.callTool(ctx, "echo", len(benchText))
					})
				})
			}
		}
	}
}

// dialBench connects plainmcp's client to srv for the benchmark.
func dialBench(b *testing.B, srv *benchServer, stateless bool) *oursClient {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := dialOurs(ctx, srv.srv.URL, stateless)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.close() })
	return c
}

// BenchmarkHTTPCallFloor is the floor: the same exchanges by hand with
// net/http and encoding/json.
func BenchmarkHTTPCallFloor(b *testing.B) {
	for _, era := range benchEras {
		for _, body := range benchBodies {
			for _, mode := range benchModes {
				b.Run(era.name+"/"+body.name+"/"+mode, func(b *testing.B) {
					srv := newBenchServer(b, body.sse, era.stateless)
					f := newFloorHTTP(b, srv, era.stateless)
					runBench(b, srv, mode, f.callEcho)
				})
			}
		}
	}
}

// BenchmarkHTTPServerOnly is what the bench server costs per call, alone:
// its client writes prepared bytes and parses the answer in place on one
// kept connection. Subtract it from a benchmark's B/call and allocs/call
// to compare clients.
func BenchmarkHTTPServerOnly(b *testing.B) {
	for _, body := range benchBodies {
		b.Run(body.name, func(b *testing.B) {
			srv := newBenchServer(b, body.sse, false)
			c := newRawClient(b, srv)
			want := []byte(`"text":"` + benchText + `"`)
			runBench(b, srv, "seq", func(context.Context) error {
				got, err := c.call()
				if err != nil {
					return err
				}
				if !bytes.Contains(got, want) {
					return fmt.Errorf("got %q", got)
				}
				return nil
			})
		})
	}
}

// BenchmarkSSEReader reads one event stream per iteration, reader made and
// released included: an answer of one small event (what every SSE answer
// to a call is), 100 small events, and one event of 1 MiB.
func BenchmarkSSEReader(b *testing.B) {
	small := "event: message\nid: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + benchText + "\"}]}}\n\n"
	for _, tc := range []struct {
		name string
		in   string
	}{
		{"answer", small},
		{"100events", strings.Repeat(small, 100)},
		{"1MiB", "data: " + strings.Repeat("x", 1<<20) + "\n\n"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			src := strings.NewReader(tc.in)
			b.SetBytes(int64(len(tc.in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				src.Reset(tc.in)
				r := newSSEReader(src, 0)
				for range 1000 {
					if _, err := r.Next(); err != nil {
						if err != io.EOF {
							b.Fatal(err)
						}
						break
					}
				}
				r.release()
			}
		})
	}
}
