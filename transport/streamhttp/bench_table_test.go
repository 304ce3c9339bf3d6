package streamhttp

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkHTTPTable and BenchmarkHTTPTableFloor measure every row of the
// HTTP table of the README, plainmcp's transport and the floor side by
// side (scripts/bench-http.sh runs them interleaved and prints the
// ratios). Each is BenchmarkHTTPTable/<row>/<era>-<body>, the columns
// handshake-json, handshake-sse, stateless-json and stateless-sse, against
// a bench server in a process of its own (bench_proc_test.go), so that
// the CPU time and the allocations measured here are the client's. Rows:
//
//	seq      calls one after the other (calls/s; B/call and allocs/call)
//	in1 … in256  calls kept 1, 8, 64 or 256 in flight by as many
//	         goroutines (calls/s; cpu-ns/call, the client's CPU time)
//	cold     per iteration, a client with a new pool makes 10,000 calls,
//	         256 in flight (calls/s; conns, the connections it opened;
//	         srv-cpu-ns/call, the server's CPU time)
//	burst    per iteration, a client with a new pool makes 256 calls at
//	         once (conns/op: the first burst's connections)
//	bursts512 per iteration, 512 calls at once from one client, its pool
//	         warm after the first (conns/op: what each burst opens again;
//	         srv-cpu-ns/call: what that costs the server)
//	big      calls whose result is 1 MiB of text, one after the other
//	         (B/call)
//	connect  per iteration, connect (the handshake where there is one)
//	         and list the tools, then close (connect-ns, close-ns)
//	list5000 per iteration, list 5,000 tools in pages of 100
//
// Every row reports calls/s, B/call, allocs/call, conns/op (connections
// the server accepted per iteration), and where the platform measures
// CPU time (unix) cpu-ns/call and srv-cpu-ns/call.
func BenchmarkHTTPTable(b *testing.B) { benchTable(b, oursDialer) }

// BenchmarkHTTPTableFloor is the floor of BenchmarkHTTPTable: net/http
// with one tuned http.Transport, encoding/json, each answer read on the
// calling goroutine (bench_floor_test.go).
func BenchmarkHTTPTableFloor(b *testing.B) { benchTable(b, floorDialer) }

// tableClient is one side of the table: plainmcp's transport or the floor.
type tableClient interface {
	callTool(ctx context.Context, name string, want int) error
	list(ctx context.Context) (int, error)
	close() error
}

type tableDialer func(ctx context.Context, url string, stateless bool) (tableClient, error)

func oursDialer(ctx context.Context, url string, stateless bool) (tableClient, error) {
	return dialOurs(ctx, url, stateless)
}

func floorDialer(ctx context.Context, url string, stateless bool) (tableClient, error) {
	return dialFloor(ctx, url, stateless)
}

var tableColumns = []struct {
	name string
	cfg  benchConfig
}{
	{"handshake-json", benchConfig{}},
	{"handshake-sse", benchConfig{SSE: true}},
	{"stateless-json", benchConfig{Stateless: true}},
	{"stateless-sse", benchConfig{SSE: true, Stateless: true}},
}

// tableRow measures one row against srv; it returns the calls made.
type tableRow func(b *testing.B, m *meter, dial tableDialer) int

var tableRows = []struct {
	name  string
	tools int // the server's tools/list length (0: echo and big)
	run   tableRow
}{
	{"seq", 0, rowInFlight(0)},
	{"in1", 0, rowInFlight(1)},
	{"in8", 0, rowInFlight(8)},
	{"in64", 0, rowInFlight(64)},
	{"in256", 0, rowInFlight(256)},
	{"cold", 0, rowCold},
	{"burst", 0, rowBurst},
	{"bursts512", 0, rowBursts},
	{"big", 0, rowBig},
	{"connect", 0, rowConnect},
	{"list5000", 5000, rowList},
}

const coldCalls, coldInFlight = 10000, 256

func benchTable(b *testing.B, dial tableDialer) {
	for _, row := range tableRows {
		for _, col := range tableColumns {
			b.Run(row.name+"/"+col.name, func(b *testing.B) {
				cfg := col.cfg
				cfg.Tools = row.tools
				srv := startProcServer(b, cfg)
				m := &meter{b: b, srv: srv, url: srv.URL, stateless: cfg.Stateless}
				calls := row.run(b, m, dial)
				m.report(calls)
			})
		}
	}
}

// dialTable connects a client for the benchmark, closed at its end.
func dialTable(b *testing.B, m *meter, dial tableDialer) tableClient {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := dial(ctx, m.url, m.stateless)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.close() })
	return c
}

// rowInFlight calls echo b.N times, n at once (0: one after the other on
// the benchmark's goroutine).
func rowInFlight(n int) tableRow {
	return func(b *testing.B, m *meter, dial tableDialer) int {
		c := dialTable(b, m, dial)
		m.start()
		if err := inFlight(n, b.N, func(ctx context.Context) error { return c.callTool(ctx, "echo", len(benchText)) }); err != nil {
			b.Fatal(err)
		}
		m.stop()
		return b.N
	}
}

// inFlight makes total calls, n at a time (0: on this goroutine), and
// returns the first failure. A start channel, if given, is closed once
// all n goroutines are running.
func inFlight(n, total int, call func(ctx context.Context) error, start ...chan struct{}) error {
	ctx := context.Background()
	if n == 0 {
		for range total {
			if err := call(ctx); err != nil {
				return err
			}
		}
		return nil
	}
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	wg.Add(n)
	var running sync.WaitGroup
	running.Add(n)
	for range n {
		go func() {
			defer wg.Done()
			running.Done()
			for next.Add(1) <= int64(total) && failed.Load() == nil {
				if err := call(ctx); err != nil {
					failed.CompareAndSwap(nil, &err)
				}
			}
		}()
	}
	running.Wait()
	for _, ch := range start {
		close(ch)
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		return *err
	}
	return nil
}

// rowCold makes coldCalls calls per iteration from a client with a new
// pool, dialed and closed on the clock.
func rowCold(b *testing.B, m *meter, dial tableDialer) int {
	m.start()
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		c, err := dial(ctx, m.url, m.stateless)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		err = inFlight(coldInFlight, coldCalls, func(ctx context.Context) error { return c.callTool(ctx, "echo", len(benchText)) })
		c.close()
		if err != nil {
			b.Fatal(err)
		}
	}
	m.stop()
	return b.N * coldCalls
}

// rowBurst makes one burst of coldInFlight calls at once per iteration,
// from a client with a new pool.
func rowBurst(b *testing.B, m *meter, dial tableDialer) int {
	m.start()
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		c, err := dial(ctx, m.url, m.stateless)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		start := make(chan struct{})
		err = inFlight(coldInFlight, coldInFlight, func(ctx context.Context) error {
			<-start // every call waits for the others to be ready
			return c.callTool(ctx, "echo", len(benchText))
		}, start)
		c.close()
		if err != nil {
			b.Fatal(err)
		}
	}
	m.stop()
	return b.N * coldInFlight
}

// rowBursts makes one burst of 2 × coldInFlight calls at once per
// iteration, from one client.
func rowBursts(b *testing.B, m *meter, dial tableDialer) int {
	c := dialTable(b, m, dial)
	const n = 2 * coldInFlight
	m.start()
	for range b.N {
		start := make(chan struct{})
		err := inFlight(n, n, func(ctx context.Context) error {
			<-start
			return c.callTool(ctx, "echo", len(benchText))
		}, start)
		if err != nil {
			b.Fatal(err)
		}
	}
	m.stop()
	return b.N * n
}

func rowBig(b *testing.B, m *meter, dial tableDialer) int {
	c := dialTable(b, m, dial)
	m.start()
	if err := inFlight(0, b.N, func(ctx context.Context) error { return c.callTool(ctx, "big", benchBig) }); err != nil {
		b.Fatal(err)
	}
	m.stop()
	return b.N
}

// rowConnect connects, lists the tools and closes, b.N times; it reports
// the time to connect and list, and the time to close, apart.
func rowConnect(b *testing.B, m *meter, dial tableDialer) int {
	var connect, closing time.Duration
	m.start()
	for range b.N {
		t0 := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, err := dial(ctx, m.url, m.stateless)
		if err == nil {
			_, err = c.list(ctx)
		}
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		c.close()
		connect, closing = connect+t1.Sub(t0), closing+time.Since(t1)
	}
	m.stop()
	b.ReportMetric(float64(connect.Nanoseconds())/float64(b.N), "connect-ns")
	b.ReportMetric(float64(closing.Nanoseconds())/float64(b.N), "close-ns")
	return b.N
}

func rowList(b *testing.B, m *meter, dial tableDialer) int {
	c := dialTable(b, m, dial)
	m.start()
	for range b.N {
		n, err := c.list(context.Background())
		if err == nil && n != 5000 {
			err = fmt.Errorf("listed %d tools, want 5000", n)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	m.stop()
	return b.N
}

// meter measures what happens between start and stop: this process's
// allocations and CPU time, and the server's connections and CPU time.
type meter struct {
	b         *testing.B
	srv       *procServer
	url       string
	stateless bool

	mem0, mem1 runtime.MemStats
	cpu0, cpu1 time.Duration
	cpuOK      bool
	st0, st1   serverStats
}

func (m *meter) start() {
	m.st0 = m.srv.stats(m.b)
	runtime.ReadMemStats(&m.mem0)
	m.cpu0, m.cpuOK = processCPU()
	m.b.ReportAllocs()
	m.b.ResetTimer()
}

func (m *meter) stop() {
	m.b.StopTimer()
	m.cpu1, _ = processCPU()
	runtime.ReadMemStats(&m.mem1)
	m.st1 = m.srv.stats(m.b)
}

// report reports the figures per call; calls is how many were made.
func (m *meter) report(calls int) {
	b, n := m.b, float64(calls)
	b.ReportMetric(n/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64(m.mem1.TotalAlloc-m.mem0.TotalAlloc)/n, "B/call")
	b.ReportMetric(float64(m.mem1.Mallocs-m.mem0.Mallocs)/n, "allocs/call")
	b.ReportMetric(float64(m.st1.Conns-m.st0.Conns)/float64(b.N), "conns/op")
	if m.cpuOK && m.st1.CPU > 0 {
		b.ReportMetric(float64((m.cpu1-m.cpu0).Nanoseconds())/n, "cpu-ns/call")
		b.ReportMetric(float64((m.st1.CPU-m.st0.CPU).Nanoseconds())/n, "srv-cpu-ns/call")
	}
}
