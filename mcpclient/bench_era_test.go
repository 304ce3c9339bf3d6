package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/transport"
)

// BenchmarkEra runs the same exchanges in both eras of the protocol, each
// against the bench server of that era (bench_server_test.go), so that
// BenchmarkEra/X/stateless over BenchmarkEra/X/handshake is what the
// stateless era costs. The stateless bench server refuses any request
// without the protocol version in its _meta, so a stateless run that
// passes has sent the metadata every time. BenchmarkEraFloor is the same
// for a hand-written client (bufio and encoding/json), for the exchanges
// where it tells the most: one small call, and many in flight.

// benchEras are the eras the benchmarks compare, in the order they run.
var benchEras = []Era{EraHandshake, EraStateless}

// benchMode is the raw server mode that answers in era.
func benchMode(era Era) string {
	if era == EraStateless {
		return "bench-stateless"
	}
	return "bench"
}

// benchInflight is how many calls the inflight256 exchange has in flight.
const benchInflight = 256

// benchArgs is the argument of the args1MiB exchange: benchBigText bytes
// of text for tool "len".
var benchArgs = sync.OnceValue(func() echoArgs { return echoArgs{Text: benchLines()} })

// startEraSession connects a Session pinned to era to a bench server of
// that era over stdio.
func startEraSession(b *testing.B, era Era) *Session {
	b.Helper()
	stream, err := transport.StartStdio(transport.StdioConfig{
		Command:    os.Args[0],
		Env:        []string{serverModeEnv + "=" + benchMode(era), "GORACE=atexit_sleep_ms=0"},
		CloseDelay: 200 * time.Millisecond,
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := Connect(ctx, stream, &Options{Era: era})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if s.Era() != era {
		b.Fatalf("connected in the %s era, want %s", s.Era(), era)
	}
	return s
}

// eraExchanges are BenchmarkEra's exchanges, each timing b.N of its kind
// on a connected session.
var eraExchanges = []struct {
	name string
	run  func(b *testing.B, s *Session)
}{
	{"echo", func(b *testing.B, s *Session) { benchEcho(b, context.Background(), s) }},
	// A host's context can end (a request of its own, a signal), and a
	// call under one costs more than under context.Background: the
	// exchange's context is a context.WithCancelCause, and a write to the
	// server watches it.
	{"echoCancellable", func(b *testing.B, s *Session) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		benchEcho(b, ctx, s)
	}},
	{"args1MiB", func(b *testing.B, s *Session) {
		ctx := context.Background()
		args := benchArgs()
		want := strconv.Itoa(len(args.Text))
		b.SetBytes(int64(len(args.Text)))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			res, err := s.CallTool(ctx, "len", args)
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Content) != 1 || res.Content[0].Text != want {
				b.Fatalf("got %+v, want the text %s", res.Content, want)
			}
		}
	}},
	{"result1MiB", benchResult1MiB},
	{"list5000", benchList5000},
	{"inflight256", func(b *testing.B, s *Session) {
		ctx := context.Background()
		runInflight(b, func() error { return callEcho(ctx, s) })
	}},
	{"inflight256Cancellable", func(b *testing.B, s *Session) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		runInflight(b, func() error { return callEcho(ctx, s) })
	}},
}

// runInflight times b.N rounds of benchInflight concurrent calls, each
// round waiting for all of its calls, and reports the time and the CPU
// time per call as well as the time per round.
func runInflight(b *testing.B, call func() error) {
	var failed atomic.Pointer[error]
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		wg.Add(benchInflight)
		for range benchInflight {
			go func() {
				defer wg.Done()
				if err := call(); err != nil {
					failed.CompareAndSwap(nil, &err)
				}
			}()
		}
		wg.Wait()
	}
	elapsed := time.Since(start)
	b.StopTimer()
	if err := failed.Load(); err != nil {
		b.Fatal(*err)
	}
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(b.N*benchInflight), "ns/call")
	cpu.report(b, b.N*benchInflight)
}

func BenchmarkEra(b *testing.B) {
	for _, ex := range eraExchanges {
		b.Run(ex.name, func(b *testing.B) {
			for _, era := range benchEras {
				b.Run(era.String(), func(b *testing.B) {
					ex.run(b, startEraSession(b, era))
				})
			}
		})
	}
}

// The floor in the stateless era is the handshake-era floor (bench_test.go)
// plus what the era asks of every client: server/discover instead of the
// handshake, the same _meta on every request, and a look at resultType.

// floorInfo is the hand-written client's clientInfo.
type floorInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// floorMeta is the _meta a stateless-era request carries.
type floorMeta struct {
	ProtocolVersion    string    `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities struct{}  `json:"io.modelcontextprotocol/clientCapabilities"`
	ClientInfo         floorInfo `json:"io.modelcontextprotocol/clientInfo"`
}

// floorMetaOf is the _meta of every request in era: none in the handshake
// era, built once in the stateless one.
func floorMetaOf(era Era) *floorMeta {
	if era != EraStateless {
		return nil
	}
	return &floorMeta{ProtocolVersion: LatestVersion, ClientInfo: floorInfo{Name: "floor", Version: "0"}}
}

// floorEraCall is tools/call's params, with _meta in the stateless era.
type floorEraCall struct {
	Name      string     `json:"name"`
	Arguments any        `json:"arguments,omitempty"`
	Meta      *floorMeta `json:"_meta,omitempty"`
}

// floorEraResult is floorCallResult plus resultType.
type floorEraResult struct {
	ResultType string `json:"resultType"`
	Content    []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

// check is what both floors check of an echo result.
func (r *floorEraResult) check() error {
	if r.ResultType != "" && r.ResultType != "complete" {
		return fmt.Errorf("resultType %q", r.ResultType)
	}
	if len(r.Content) != 1 || r.Content[0].Text != echoText {
		return fmt.Errorf("got %+v", r.Content)
	}
	return nil
}

// dialFloor starts a bench server of era with exec.Command and connects
// the hand-written client: initialize and notifications/initialized in
// the handshake era, server/discover in the stateless one. It serves
// benchmarks and the memory client alike, hence no *testing.B.
func dialFloor(era Era) (*floorClient, error) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serverModeEnv+"="+benchMode(era), "GORACE=atexit_sleep_ms=0")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	f := &floorClient{cmd: cmd, stdin: stdin, enc: json.NewEncoder(stdin), out: bufio.NewReaderSize(stdout, 64<<10)}
	if err := f.open(era); err != nil {
		f.close()
		return nil, err
	}
	return f, nil
}

func (f *floorClient) open(era Era) error {
	if meta := floorMetaOf(era); meta != nil {
		var res struct {
			SupportedVersions []string `json:"supportedVersions"`
		}
		if err := f.call("server/discover", struct {
			Meta *floorMeta `json:"_meta"`
		}{meta}, &res); err != nil {
			return err
		}
		if len(res.SupportedVersions) != 1 || res.SupportedVersions[0] != LatestVersion {
			return fmt.Errorf("server/discover: the server speaks %v", res.SupportedVersions)
		}
		return nil
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	params := map[string]any{"protocolVersion": latestHandshakeVersion, "capabilities": map[string]any{}, "clientInfo": floorInfo{Name: "floor", Version: "0"}}
	if err := f.call("initialize", params, &init); err != nil {
		return err
	}
	return f.enc.Encode(floorRequest{JSONRPC: "2.0", Method: "notifications/initialized"})
}

// close ends the server: its stdin closed, it exits.
func (f *floorClient) close() {
	f.stdin.Close()
	f.cmd.Wait()
}

func startEraFloor(b *testing.B, era Era) *floorClient {
	b.Helper()
	f, err := dialFloor(era)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(f.close)
	return f
}

// floorMux is the hand-written client for calls in flight: requests go
// out under a lock, and responses are read on a goroutine of their own
// and handed to their callers through an id → channel map.
type floorMux struct {
	f    *floorClient
	meta *floorMeta
	wmu  sync.Mutex
	next atomic.Int64

	mu      sync.Mutex
	pending map[int64]chan *floorReply
	err     error // why reading ended
}

// floorReply is a response with its result still encoded, so the reader
// needs to know nothing about the call.
type floorReply struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// newFloorMux takes over an opened floorClient: from now on only the mux
// reads and writes it.
func newFloorMux(f *floorClient, era Era) *floorMux {
	m := &floorMux{f: f, meta: floorMetaOf(era), pending: make(map[int64]chan *floorReply)}
	m.next.Store(f.id)
	go m.read()
	return m
}

func (m *floorMux) read() {
	for {
		line, err := m.f.out.ReadBytes('\n')
		if err != nil {
			m.mu.Lock()
			m.err = err
			for id, ch := range m.pending {
				close(ch)
				delete(m.pending, id)
			}
			m.mu.Unlock()
			return
		}
		r := new(floorReply)
		if json.Unmarshal(line, r) != nil {
			continue
		}
		m.mu.Lock()
		ch := m.pending[r.ID]
		delete(m.pending, r.ID)
		m.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
}

// call sends one request and waits for its response.
func (m *floorMux) call(method string, params, result any) error {
	id := m.next.Add(1)
	ch := make(chan *floorReply, 1)
	m.mu.Lock()
	if m.err != nil {
		m.mu.Unlock()
		return m.err
	}
	m.pending[id] = ch
	m.mu.Unlock()
	m.wmu.Lock()
	err := m.f.enc.Encode(floorRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	m.wmu.Unlock()
	if err != nil {
		return err
	}
	r, ok := <-ch
	switch {
	case !ok:
		return fmt.Errorf("%s: the connection ended", method)
	case r.Error != nil:
		return fmt.Errorf("%s: %d %s", method, r.Error.Code, r.Error.Message)
	}
	return json.Unmarshal(r.Result, result)
}

func (m *floorMux) callEcho() error {
	var res floorEraResult
	if err := m.call("tools/call", floorEraCall{Name: "echo", Arguments: echoArgs{Text: echoText}, Meta: m.meta}, &res); err != nil {
		return err
	}
	return res.check()
}

func BenchmarkEraFloor(b *testing.B) {
	b.Run("echo", func(b *testing.B) {
		for _, era := range benchEras {
			b.Run(era.String(), func(b *testing.B) {
				f := startEraFloor(b, era)
				meta := floorMetaOf(era)
				b.ReportAllocs()
				b.ResetTimer()
				cpu := startCPU()
				for i := 0; i < b.N; i++ {
					var res floorEraResult
					if err := f.call("tools/call", floorEraCall{Name: "echo", Arguments: echoArgs{Text: echoText}, Meta: meta}, &res); err != nil {
						b.Fatal(err)
					}
					if err := res.check(); err != nil {
						b.Fatal(err)
					}
				}
				cpu.report(b, b.N)
			})
		}
	})
	b.Run("inflight256", func(b *testing.B) {
		for _, era := range benchEras {
			b.Run(era.String(), func(b *testing.B) {
				m := newFloorMux(startEraFloor(b, era), era)
				runInflight(b, m.callEcho)
			})
		}
	})
}

// TestBenchServerEras checks what the era benchmarks rely on: each bench
// server speaks its era only, the stateless one refuses a request without
// the metadata, and a Session left to detect the era finds the right one
// (as the memory benchmarks' client does).
func TestBenchServerEras(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	f, err := dialFloor(EraStateless)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	var res floorEraResult
	if err := f.call("tools/call", floorEraCall{Name: "echo", Arguments: echoArgs{Text: echoText}}, &res); err == nil {
		t.Errorf("the stateless server answered a request without _meta: %+v", res)
	}
	if err := f.call("tools/call", floorEraCall{Name: "echo", Arguments: echoArgs{Text: echoText}, Meta: floorMetaOf(EraStateless)}, &res); err != nil {
		t.Fatal(err)
	}
	if res.ResultType != "complete" || res.check() != nil {
		t.Errorf("stateless echo: %+v", res)
	}

	h, err := dialFloor(EraHandshake)
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	if err := h.call("server/discover", struct{}{}, nil); err == nil {
		t.Error("the handshake server answered server/discover")
	}
	res = floorEraResult{}
	if err := h.call("tools/call", floorEraCall{Name: "len", Arguments: echoArgs{Text: "héllo"}}, &res); err != nil {
		t.Fatal(err)
	}
	if res.ResultType != "" || len(res.Content) != 1 || res.Content[0].Text != "6" {
		t.Errorf("handshake len: %+v", res)
	}

	for _, era := range benchEras {
		stream, err := transport.StartStdio(transport.StdioConfig{
			Command:    os.Args[0],
			Env:        []string{serverModeEnv + "=" + benchMode(era), "GORACE=atexit_sleep_ms=0"},
			CloseDelay: 200 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		s, err := Connect(ctx5s(t), stream, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Era() != era {
			t.Errorf("detected the %s era against the %s server", s.Era(), benchMode(era))
		}
		if err := callEcho(ctx5s(t), s); err != nil {
			t.Error(err)
		}
		s.Close()
	}
}
