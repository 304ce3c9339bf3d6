package streamhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// readRecorder is a Stream that passes everything on to s and records the
// frames Read returned.
type readRecorder struct {
	*Stream
	calls atomic.Int32 // of Read, whatever it returned
	mu    sync.Mutex
	reads []string
}

func (r *readRecorder) Read() ([]byte, error) {
	r.calls.Add(1)
	frame, err := r.Stream.Read()
	if err == nil {
		r.mu.Lock()
		r.reads = append(r.reads, string(frame))
		r.mu.Unlock()
	}
	return frame, err
}

func (r *readRecorder) read() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.reads...)
}

// An answer that is the response alone reaches the call without passing
// through Read, which is then never called; messages ahead of the response on its event stream go
// through Read, and the response after them, so that a notification is
// in place before its call returns.
func TestAnswersReachTheCallDirectly(t *testing.T) {
	progress := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, m *rpcwire.Message)
		reads  int // frames Read returns: the messages ahead and the response
	}{
		{"json", func(w http.ResponseWriter, m *rpcwire.Message) { jsonAnswer(w, m, `{"n":7}`) }, 0},
		{"sse", func(w http.ResponseWriter, m *rpcwire.Message) {
			sseHeader(w)
			sseEvent(w, "", string(rpcwire.AppendResult(nil, m.ID, json.RawMessage(`{"n":7}`))))
		}, 0},
		{"sse, progress ahead", func(w http.ResponseWriter, m *rpcwire.Message) {
			sseHeader(w)
			sseEvent(w, "", progress)
			sseEvent(w, "", string(rpcwire.AppendResult(nil, m.ID, json.RawMessage(`{"n":7}`))))
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			f := newMCPHTTP(t)
			f.answer = func(w http.ResponseWriter, _ *http.Request, m *rpcwire.Message) { tc.answer(w, m) }
			stream, err := Dial(ctx5(t), Config{URL: f.srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			stream.SetProtocol(transport.Protocol{Version: "2026-07-28", Stateless: true})
			rec := &readRecorder{Stream: stream}
			var intercepted atomic.Int32
			c := jsonrpc.NewConn(rec, &jsonrpc.Options{Intercept: func(*jsonrpc.Request) bool { intercepted.Add(1); return true }})
			defer c.Close()
			for i := range 3 {
				var res struct{ N int }
				if err := c.Call(ctx5(t), "tools/call", map[string]any{"name": "x"}, &res); err != nil || res.N != 7 {
					t.Fatalf("call %d: %+v, %v", i, res, err)
				}
				if want := int32(tc.reads/2) * int32(i+1); intercepted.Load() != want {
					t.Fatalf("call %d returned with %d notifications intercepted, want %d", i, intercepted.Load(), want)
				}
			}
			if got := rec.read(); len(got) != 3*tc.reads {
				t.Errorf("Read returned %d frames, want %d: %q", len(got), 3*tc.reads, got)
			}
			// With nothing ahead of the responses, nothing ever had to be
			// read: the Conn started no read loop (rpcwire.ReadNotifier).
			c.Close()
			if n := rec.calls.Load(); tc.reads == 0 && n != 0 {
				t.Errorf("Read was called %d times, though every answer came through Call", n)
			}
		})
	}
}

// transport.Trace passes a call on to the stream and prints its direct
// answer.
func TestTraceSeesDirectAnswers(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, _ *http.Request, m *rpcwire.Message) { jsonAnswer(w, m, `{"n":7}`) }
	stream, err := Dial(ctx5(t), Config{URL: f.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	traced := transport.Trace(stream, &out, "[s]")
	if _, ok := traced.(rpcwire.Caller); !ok {
		t.Fatal("the traced stream is no rpcwire.Caller")
	}
	c := jsonrpc.NewConn(traced, nil)
	var res struct{ N int }
	if err := c.Call(ctx5(t), "tools/list", nil, &res); err != nil || res.N != 7 {
		t.Fatalf("%+v, %v", res, err)
	}
	c.Close()
	want := "[s] -> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n" +
		"[s] <- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":7}}\n"
	if got := out.String(); got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
	if strings.Count(out.String(), "<-") != 1 {
		t.Error("the answer was printed more than once")
	}
}

// A stream that hides Call (a wrapper of the caller's that knows only
// jsonrpc.Stream) still gets every answer, through Write and Read, with
// the same checks.
func TestAnswersThroughWriteAndRead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, m *rpcwire.Message)
		err    error // nil: the call gets n 7
	}{
		{"json", func(w http.ResponseWriter, m *rpcwire.Message) { jsonAnswer(w, m, `{"n":7}`) }, nil},
		{"sse", func(w http.ResponseWriter, m *rpcwire.Message) {
			sseHeader(w)
			sseEvent(w, "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`)
			sseEvent(w, "", string(rpcwire.AppendResult(nil, m.ID, json.RawMessage(`{"n":7}`))))
		}, nil},
		{"another request's response", func(w http.ResponseWriter, m *rpcwire.Message) {
			jsonAnswer(w, &rpcwire.Message{ID: rpcwire.Int64ID(99)}, `{"n":7}`)
		}, rpcwire.ErrBadResponse},
		{"stream ends first", func(w http.ResponseWriter, m *rpcwire.Message) { sseHeader(w) }, jsonrpc.ErrResponseLost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			f := newMCPHTTP(t)
			f.answer = func(w http.ResponseWriter, _ *http.Request, m *rpcwire.Message) { tc.answer(w, m) }
			stream, err := Dial(ctx5(t), Config{URL: f.srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			stream.SetProtocol(transport.Protocol{Version: "2026-07-28", Stateless: true})
			plain := struct{ jsonrpc.Stream }{stream}
			c := jsonrpc.NewConn(plain, nil)
			defer c.Close()
			var res struct{ N int }
			err = c.Call(ctx5(t), "tools/call", map[string]any{"name": "x"}, &res)
			switch {
			case tc.err == nil && (err != nil || res.N != 7):
				t.Errorf("got %+v, %v; want n 7", res, err)
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Errorf("got %v, want %v", err, tc.err)
			}
		})
	}
}

// writeOnly passes Read, Write, Close and NotifyRead on, and hides Call:
// the Conn sends its requests with Write, as over a wrapper that does not
// know the direct path.
type writeOnly struct{ s *Stream }

func (w writeOnly) Read() ([]byte, error)                     { return w.s.Read() }
func (w writeOnly) Write(ctx context.Context, f []byte) error { return w.s.Write(ctx, f) }
func (w writeOnly) Close() error                              { return w.s.Close() }
func (w writeOnly) NotifyRead(f func())                       { w.s.NotifyRead(f) }

// A request sent with Write whose answer is unusable fails at once,
// though nothing else ever came to read: the failure itself starts the
// Conn's read loop (rpcwire.ReadNotifier).
func TestUnusableAnswerToAWriteWakesTheConn(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, _ *http.Request, _ *rpcwire.Message) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "not JSON-RPC")
	}
	stream, err := Dial(ctx5(t), Config{URL: f.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	stream.SetProtocol(transport.Protocol{Version: "2026-07-28", Stateless: true})
	c := jsonrpc.NewConn(writeOnly{stream}, nil)
	defer c.Close()
	err = c.Call(ctx5(t), "tools/call", map[string]any{"name": "x"}, nil)
	if !errors.Is(err, rpcwire.ErrBadResponse) {
		t.Fatalf("got %v, want ErrBadResponse", err)
	}
}
