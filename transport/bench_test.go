package transport

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The benchmarks in this file time one JSON-RPC call in memory. Each comes
// with a floor: the same exchange written by hand with bufio and
// encoding/json, no correlation, no framing checks. The server side does
// the same work in both (decode the request into a struct, marshal the
// response struct), so the difference is what the library adds.

type addParams struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addResult struct {
	Sum int `json:"sum"`
}

// addRequest is the request as the server decodes it.
type addRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params addParams       `json:"params"`
}

type addResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  addResult       `json:"result"`
}

// answerAdd is the server's work for one request, shared by every
// benchmark here.
func answerAdd(frame []byte) ([]byte, error) {
	var req addRequest
	if err := json.Unmarshal(frame, &req); err != nil {
		return nil, err
	}
	return json.Marshal(addResponse{JSONRPC: "2.0", ID: req.ID, Result: addResult{Sum: req.Params.A + req.Params.B}})
}

// serveAdd answers add requests on s until it ends.
func serveAdd(s jsonrpc.Stream) {
	for {
		frame, err := s.Read()
		if err != nil {
			return
		}
		resp, err := answerAdd(frame)
		if err != nil {
			return
		}
		if s.Write(context.Background(), resp) != nil {
			return
		}
	}
}

// benchAdd makes b.N calls to add on conn and checks each answer.
func benchAdd(b *testing.B, conn *jsonrpc.Conn) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var res addResult
		if err := conn.Call(ctx, "add", addParams{A: i, B: 1}, &res); err != nil {
			b.Fatal(err)
		}
		if res.Sum != i+1 {
			b.Fatalf("sum: got %d, want %d", res.Sum, i+1)
		}
	}
}

// BenchmarkCallPipe is a jsonrpc.Conn call over Pipe, answered by a bare
// server loop.
func BenchmarkCallPipe(b *testing.B) {
	client, server := Pipe()
	go serveAdd(server)
	conn := jsonrpc.NewConn(client, nil)
	defer server.Close()
	defer conn.Close()
	benchAdd(b, conn)
}

// BenchmarkCallLines is the same call over a LineStream on io.Pipe: the
// medium the floor uses.
func BenchmarkCallLines(b *testing.B) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	server := NewLineStream(sr, sw, nil)
	go serveAdd(server)
	conn := jsonrpc.NewConn(NewLineStream(cr, cw, nil), nil)
	defer server.Close()
	defer conn.Close()
	benchAdd(b, conn)
}

// BenchmarkCallPipeFloor is the floor for BenchmarkCallPipe and
// BenchmarkCallLines: one request line out, one response line back, over
// io.Pipe.
func BenchmarkCallPipeFloor(b *testing.B) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	go func() {
		in := bufio.NewReader(sr)
		out := bufio.NewWriter(sw)
		for {
			line, err := in.ReadBytes('\n')
			if err != nil {
				return
			}
			resp, err := answerAdd(line)
			if err != nil {
				return
			}
			out.Write(resp)
			out.WriteByte('\n')
			if out.Flush() != nil {
				return
			}
		}
	}()
	defer sr.Close()
	defer cr.Close()

	type request struct {
		JSONRPC string    `json:"jsonrpc"`
		ID      int64     `json:"id"`
		Method  string    `json:"method"`
		Params  addParams `json:"params"`
	}
	type response struct {
		ID     int64     `json:"id"`
		Result addResult `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	enc := json.NewEncoder(cw)
	in := bufio.NewReader(cr)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := int64(i + 1)
		if err := enc.Encode(request{JSONRPC: "2.0", ID: id, Method: "add", Params: addParams{A: i, B: 1}}); err != nil {
			b.Fatal(err)
		}
		line, err := in.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		var res response
		if err := json.Unmarshal(line, &res); err != nil {
			b.Fatal(err)
		}
		if res.ID != id || res.Error != nil || res.Result.Sum != i+1 {
			b.Fatalf("got %s for call %d", line, id)
		}
	}
}

// BenchmarkLineStreamWrite writes a request-sized frame to an OS pipe that
// a goroutine drains, as Stdio writes to a server's stdin, under a context
// that cannot end and under one that can (a host's): the second is where
// a write may set a deadline, so that a write blocked on a full pipe
// returns when its context ends. The floor writes the same line to the
// same pipe with a bare Write.
func BenchmarkLineStreamWrite(b *testing.B) {
	frame := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, benchmark"},"_meta":{"progressToken":12}}}`)
	line := append(append([]byte(nil), frame...), '\n')
	cancellable, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, bc := range []struct {
		name  string
		write func(s *LineStream, w io.Writer) error
	}{
		{"background", func(s *LineStream, _ io.Writer) error { return s.Write(context.Background(), frame) }},
		{"cancellable", func(s *LineStream, _ io.Writer) error { return s.Write(cancellable, frame) }},
		{"floor", func(_ *LineStream, w io.Writer) error { _, err := w.Write(line); return err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r, w, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			s := NewLineStream(strings.NewReader(""), w, nil)
			drained := make(chan struct{})
			go func() {
				defer close(drained)
				io.Copy(io.Discard, r)
			}()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := bc.write(s, w); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			s.Close()
			<-drained
			r.Close()
		})
	}
}
