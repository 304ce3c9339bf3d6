package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"testing"
	"time"
)

// The benchmarks in this file talk to the test binary re-executed as the
// "bench" raw server (bench_server_test.go) over real pipes. Each comes
// with a floor: the same exchange written by hand with bufio and
// encoding/json against the same server, decoding into structs that keep
// what our API returns. The server process is started once per benchmark,
// outside the timer.

type echoArgs struct {
	Text string `json:"text"`
}

const echoText = "hello, benchmark"

// The Session benchmarks run in the handshake era; BenchmarkEra
// (bench_era_test.go) runs the same exchanges in both eras.

func BenchmarkCallToolStdio(b *testing.B) {
	benchEcho(b, context.Background(), startEraSession(b, EraHandshake))
}

func BenchmarkCallTool1MiB(b *testing.B) { benchResult1MiB(b, startEraSession(b, EraHandshake)) }

func BenchmarkListTools5000(b *testing.B) { benchList5000(b, startEraSession(b, EraHandshake)) }

// benchEcho times b.N calls of tool "echo" with a short text, under ctx.
func benchEcho(b *testing.B, ctx context.Context, s *Session) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		if err := callEcho(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b, b.N)
}

// startCPU starts measuring the CPU time the client spends.
func startCPU() cpuMeter {
	t, ok := processCPU()
	return cpuMeter{start: t, ok: ok}
}

// cpuMeter reports the CPU time per call, in microseconds, beside the
// wall time: on a machine shared with other work the wall time includes
// the waits for a core, the CPU time only what the client did. Every
// thread of the process counts (the read loop, the GC), and nothing of
// the server, which is a process of its own.
type cpuMeter struct {
	start time.Duration
	ok    bool
}

func (m cpuMeter) report(b *testing.B, calls int) {
	end, ok := processCPU()
	if !m.ok || !ok || calls == 0 {
		return
	}
	b.ReportMetric(float64(end-m.start)/float64(time.Microsecond)/float64(calls), "cpu-µs/call")
}

// benchResult1MiB times b.N calls of tool "big", whose result is
// benchBigText bytes of text.
func benchResult1MiB(b *testing.B, s *Session) {
	ctx := context.Background()
	b.SetBytes(benchBigText)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.CallTool(ctx, "big", nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Content) != 1 || len(res.Content[0].Text) != benchBigText {
			b.Fatalf("got %d items", len(res.Content))
		}
	}
}

// benchList5000 times b.N listings of all benchTools tools, page by page.
func benchList5000(b *testing.B, s *Session) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tools, err := Collect(s.Tools(ctx))
		if err != nil {
			b.Fatal(err)
		}
		if len(tools) != benchTools || tools[benchTools-1].Name != "tool-4999" {
			b.Fatalf("listed %d tools", len(tools))
		}
	}
}

// callEcho calls tool "echo" once and checks the answer.
func callEcho(ctx context.Context, s *Session) error {
	res, err := s.CallTool(ctx, "echo", echoArgs{Text: echoText})
	if err != nil {
		return err
	}
	if len(res.Content) != 1 || res.Content[0].Text != echoText {
		return fmt.Errorf("got %+v", res.Content)
	}
	return nil
}

// floorClient is the hand-written counterpart of a Session: one request
// line out, one response line back, nothing in between.
type floorClient struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	enc   *json.Encoder
	out   *bufio.Reader
	id    int64
}

type floorRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type floorResponse struct {
	ID     int64 `json:"id"`
	Result any   `json:"result"` // a pointer to the caller's result
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call sends one request and decodes the result into result in the same
// pass that reads the envelope.
func (f *floorClient) call(method string, params, result any) error {
	f.id++
	if err := f.enc.Encode(floorRequest{JSONRPC: "2.0", ID: f.id, Method: method, Params: params}); err != nil {
		return err
	}
	line, err := f.out.ReadBytes('\n')
	if err != nil {
		return err
	}
	resp := floorResponse{Result: result}
	if err := json.Unmarshal(line, &resp); err != nil {
		return err
	}
	switch {
	case resp.Error != nil:
		return fmt.Errorf("%s: %d %s", method, resp.Error.Code, resp.Error.Message)
	case resp.ID != f.id:
		return fmt.Errorf("%s: response id %d, want %d", method, resp.ID, f.id)
	}
	return nil
}

type floorToolCall struct {
	Name      string `json:"name"`
	Arguments any    `json:"arguments,omitempty"`
}

// floorCallResult keeps what CallToolResult keeps for text content.
type floorCallResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

func BenchmarkCallToolStdioFloor(b *testing.B) {
	f := startEraFloor(b, EraHandshake)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		var res floorCallResult
		if err := f.call("tools/call", floorToolCall{Name: "echo", Arguments: echoArgs{Text: echoText}}, &res); err != nil {
			b.Fatal(err)
		}
		if len(res.Content) != 1 || res.Content[0].Text != echoText {
			b.Fatalf("got %+v", res)
		}
	}
	cpu.report(b, b.N)
}

// BenchmarkCallToolStdioFloorReadLoop is the floor with one change: lines
// are read on a goroutine of their own and handed to the caller over a
// channel, as jsonrpc.Conn's read loop does so that calls can overlap. The
// gap between it and the floor is the price of that design: one more
// goroutine wake-up per response.
func BenchmarkCallToolStdioFloorReadLoop(b *testing.B) {
	f := startEraFloor(b, EraHandshake)
	lines := make(chan []byte, 1)
	go func() {
		defer close(lines)
		for {
			line, err := f.out.ReadBytes('\n')
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.id++
		req := floorRequest{JSONRPC: "2.0", ID: f.id, Method: "tools/call", Params: floorToolCall{Name: "echo", Arguments: echoArgs{Text: echoText}}}
		if err := f.enc.Encode(req); err != nil {
			b.Fatal(err)
		}
		var res floorCallResult
		resp := floorResponse{Result: &res}
		if err := json.Unmarshal(<-lines, &resp); err != nil {
			b.Fatal(err)
		}
		if resp.ID != f.id || resp.Error != nil || len(res.Content) != 1 || res.Content[0].Text != echoText {
			b.Fatalf("got %+v", res)
		}
	}
}

func BenchmarkCallTool1MiBFloor(b *testing.B) {
	f := startEraFloor(b, EraHandshake)
	b.SetBytes(benchBigText)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var res floorCallResult
		if err := f.call("tools/call", floorToolCall{Name: "big"}, &res); err != nil {
			b.Fatal(err)
		}
		if len(res.Content) != 1 || len(res.Content[0].Text) != benchBigText {
			b.Fatalf("got %d items", len(res.Content))
		}
	}
}

// floorTool keeps what Tool keeps of what the server sends, the schema
// as raw bytes.
type floorTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func BenchmarkListTools5000Floor(b *testing.B) {
	f := startEraFloor(b, EraHandshake)
	type page struct {
		Tools      []floorTool `json:"tools"`
		NextCursor string      `json:"nextCursor"`
	}
	type pageParams struct {
		Cursor string `json:"cursor,omitempty"`
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var tools []floorTool
		cursor := ""
		for {
			var p page
			if err := f.call("tools/list", pageParams{cursor}, &p); err != nil {
				b.Fatal(err)
			}
			tools = append(tools, p.Tools...)
			if cursor = p.NextCursor; cursor == "" {
				break
			}
		}
		if len(tools) != benchTools || tools[benchTools-1].Name != "tool-4999" {
			b.Fatalf("listed %d tools", len(tools))
		}
	}
}
