package streamhttp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// The benchmarks in this file put the Streamable HTTP transport under load
// beside a floor, against the in-process bench server of
// bench_server_test.go:
//
//	BenchmarkHTTPCall/{handshake,stateless}/{json,sse}/{mode}
//	BenchmarkHTTPCallFloor/… the same exchanges by hand
//	BenchmarkHTTPServerOnly/{json,sse}  what the server costs per call
//
// BenchmarkHTTPCall is a jsonrpc.Conn over Dial's Stream, set to the era
// as mcpclient sets it after its handshake (the session itself cannot be
// used here: transport packages may not import mcpclient). The floor is
// net/http by hand with a tuned http.Transport (256 idle connections per
// host): marshal the request, POST it with the headers of the era, read
// the JSON body or the one SSE event, decode, and read every body to its
// end so that its connection is reused.
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

// echoParams is the params of every tools/call here.
type echoParams struct {
	Name      string `json:"name"`
	Arguments struct {
		Text string `json:"text"`
	} `json:"arguments"`
}

// echoResult keeps what mcpclient's CallToolResult keeps of text content.
type echoResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

func (r *echoResult) check() error {
	if len(r.Content) != 1 || r.Content[0].Text != benchText || r.IsError {
		return fmt.Errorf("unexpected result %+v", r)
	}
	return nil
}

var benchParams = func() *echoParams {
	p := &echoParams{Name: "echo"}
	p.Arguments.Text = benchText
	return p
}()

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
					conn := dialBench(b, srv, era.stateless)
					info := &transport.RequestInfo{Method: "tools/call", Name: benchParams.Name}
					runBench(b, srv, mode, func(ctx context.Context) error {
						if era.stateless {
							ctx = transport.WithRequest(ctx, info) // as mcpclient does
						}
						var res echoResult
						if err := conn.Call(ctx, "tools/call", benchParams, &res); err != nil {
							return err
						}
						return res.check()
					})
				})
			}
		}
	}
}

// dialBench connects a jsonrpc.Conn over Dial's Stream to srv and sets the
// era as a session would: the handshake (initialize, the version, the
// initialized notification) or the stateless protocol at once.
func dialBench(b *testing.B, srv *benchServer, stateless bool) *jsonrpc.Conn {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream, err := Dial(ctx, Config{URL: srv.srv.URL})
	if err != nil {
		b.Fatal(err)
	}
	conn := jsonrpc.NewConn(stream, nil)
	b.Cleanup(func() { conn.Close() })
	if stateless {
		stream.SetProtocol(transport.Protocol{Version: benchStateless, Stateless: true})
		return conn
	}
	init := map[string]any{
		"protocolVersion": benchHandshake,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "bench", "version": "1"},
	}
	var res json.RawMessage
	if err := conn.Call(ctx, "initialize", init, &res); err != nil {
		b.Fatal(err)
	}
	stream.SetProtocol(transport.Protocol{Version: benchHandshake})
	if err := conn.Notify(ctx, "notifications/initialized", nil); err != nil {
		b.Fatal(err)
	}
	return conn
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

// floorHTTP is a hand-written Streamable HTTP client of one server.
type floorHTTP struct {
	client    *http.Client
	url       string
	stateless bool
	session   string
	id        atomic.Int64
}

// floorReaders are the floor's bufio.Readers for event streams, recycled.
var floorReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

type floorHTTPRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type floorHTTPResponse struct {
	ID     int64 `json:"id"`
	Result any   `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func newFloorHTTP(b *testing.B, srv *benchServer, stateless bool) *floorHTTP {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 2 * benchInFlight
	tr.MaxIdleConnsPerHost = 2 * benchInFlight
	f := &floorHTTP{client: &http.Client{Transport: tr}, url: srv.srv.URL, stateless: stateless}
	b.Cleanup(tr.CloseIdleConnections)
	if stateless {
		return f
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	init := map[string]any{
		"protocolVersion": benchHandshake,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "bench", "version": "1"},
	}
	var res json.RawMessage
	resp, err := f.post(ctx, "initialize", init, &res)
	if err != nil {
		b.Fatal(err)
	}
	f.session = resp.Header.Get("Mcp-Session-Id")
	if _, err := f.post(ctx, "notifications/initialized", nil, nil); err != nil {
		b.Fatal(err)
	}
	return f
}

func (f *floorHTTP) callEcho(ctx context.Context) error {
	var res echoResult
	if _, err := f.post(ctx, "tools/call", benchParams, &res); err != nil {
		return err
	}
	return res.check()
}

// post sends one message and, for a request, decodes the response's result
// into result. Every body is read to its end.
func (f *floorHTTP) post(ctx context.Context, method string, params, result any) (*http.Response, error) {
	m := floorHTTPRequest{JSONRPC: "2.0", Method: method, Params: params}
	if result != nil {
		m.ID = f.id.Add(1)
	}
	frame, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.url, bytes.NewReader(frame))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	switch {
	case f.stateless:
		req.Header.Set("MCP-Protocol-Version", benchStateless)
		req.Header.Set("Mcp-Method", method)
		if p, ok := params.(*echoParams); ok {
			req.Header.Set("Mcp-Name", p.Name)
		}
	case f.session != "":
		req.Header.Set("MCP-Protocol-Version", benchHandshake)
		req.Header.Set("Mcp-Session-Id", f.session)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s: %s", method, resp.Status)
	}
	if result == nil {
		_, err := io.Copy(io.Discard, resp.Body)
		return resp, err
	}
	var data []byte
	switch ct := resp.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "application/json"):
		data, err = io.ReadAll(resp.Body)
	case strings.HasPrefix(ct, "text/event-stream"):
		data, err = floorEvent(resp.Body)
	default:
		err = fmt.Errorf("content type %q", ct)
	}
	if err != nil {
		return nil, err
	}
	r := floorHTTPResponse{Result: result}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	switch {
	case r.Error != nil:
		return nil, fmt.Errorf("%s: %d %s", method, r.Error.Code, r.Error.Message)
	case r.ID != m.ID:
		return nil, fmt.Errorf("%s: response id %d, want %d", method, r.ID, m.ID)
	}
	return resp, nil
}

// floorEvent returns the data of the first event of an event stream, and
// reads the rest of the stream.
func floorEvent(body io.Reader) ([]byte, error) {
	br := floorReaders.Get().(*bufio.Reader)
	br.Reset(body)
	defer func() {
		br.Reset(nil)
		floorReaders.Put(br)
	}()
	var data []byte
	for range 1024 {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if data == nil {
				continue
			}
			if _, err := io.Copy(io.Discard, br); err != nil {
				return nil, err
			}
			return data, nil
		}
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			v = bytes.TrimPrefix(v, []byte(" "))
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, v...)
		}
	}
	return nil, errors.New("no event in 1024 lines")
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
