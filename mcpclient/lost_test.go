package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// lossyStream stands in for a transport whose response streams break: it
// swallows the requests lose picks and reports their responses lost, out
// of band, as the HTTP transport does.
type lossyStream struct {
	jsonrpc.Stream
	lose func(m *rpcwire.Message) bool

	once   sync.Once
	frames chan lossyRead
	mu     sync.Mutex
	sent   []string // the methods that went out (or were swallowed), in order
}

type lossyRead struct {
	frame []byte
	err   error
}

func newLossy(lose func(*rpcwire.Message) bool) func(jsonrpc.Stream) jsonrpc.Stream {
	return func(s jsonrpc.Stream) jsonrpc.Stream {
		return &lossyStream{Stream: s, lose: lose, frames: make(chan lossyRead, 16)}
	}
}

func (l *lossyStream) Read() ([]byte, error) {
	l.once.Do(func() {
		go func() {
			for {
				f, err := l.Stream.Read()
				l.frames <- lossyRead{f, err}
				if err != nil {
					return
				}
			}
		}()
	})
	r := <-l.frames
	return r.frame, r.err
}

func (l *lossyStream) Write(ctx context.Context, frame []byte) error {
	m, err := rpcwire.Decode(frame)
	if err == nil && m.IsRequest() {
		l.mu.Lock()
		l.sent = append(l.sent, m.Method)
		l.mu.Unlock()
		if l.lose(m) {
			l.frames <- lossyRead{err: &rpcwire.ResponseLostError{ID: m.ID, Reason: "the test broke the stream"}}
			return nil
		}
	}
	return l.Stream.Write(ctx, frame)
}

func (l *lossyStream) count(method string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.sent {
		if m == method {
			n++
		}
	}
	return n
}

// A broken response stream is a cancellation at the server: only what is
// safe to run twice is sent again, under a new id — lists and reads, and a
// tool annotated read-only or idempotent when the host allows it. Any
// other call fails at once with a lost response, run at most once.
func TestLostResponseReissuedOnlyWhenSafe(t *testing.T) {
	for _, tc := range []struct {
		name   string
		repeat bool // Options.RepeatSafeTools
		call   func(*Session) error
		method string
		sent   int // times the request goes out; 2 means re-issued once
	}{
		{"list", false, func(s *Session) error { _, err := s.listTools(ctx5s(t), ""); return err }, "tools/list", 2},
		{"plain tool", true, func(s *Session) error { _, err := s.CallTool(ctx5s(t), "plain", nil); return err }, "tools/call", 1},
		{"read-only tool, not allowed", false, func(s *Session) error { _, err := s.CallTool(ctx5s(t), "ro", nil); return err }, "tools/call", 1},
		{"read-only tool, allowed", true, func(s *Session) error { _, err := s.CallTool(ctx5s(t), "ro", nil); return err }, "tools/call", 2},
		{"idempotent tool, allowed", true, func(s *Session) error { _, err := s.CallTool(ctx5s(t), "idem", nil); return err }, "tools/call", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := modernServer(t)
			f.Result("tools/call", `{"content":[{"type":"text","text":"ran"}]}`)
			f.Result("tools/list", `{"tools":[{"name":"plain","inputSchema":{}},{"name":"ro","inputSchema":{},"annotations":{"readOnlyHint":true}},`+
				`{"name":"idem","inputSchema":{},"annotations":{"idempotentHint":true,"readOnlyHint":false}}]}`)
			lost := false
			var lossy *lossyStream
			s := connect(t, f, &Options{RepeatSafeTools: tc.repeat, WrapStream: func(st jsonrpc.Stream) jsonrpc.Stream {
				lossy = newLossy(func(m *rpcwire.Message) bool {
					lose := m.Method == tc.method && !lost
					lost = lost || lose
					return lose
				})(st).(*lossyStream)
				return lossy
			}})
			if tc.method == "tools/call" {
				if _, err := s.listTools(ctx5s(t), ""); err != nil {
					t.Fatal(err)
				}
			}
			err := tc.call(s)
			if n := lossy.count(tc.method); n != tc.sent {
				t.Errorf("%s went out %d times, want %d", tc.method, n, tc.sent)
			}
			if reissued := tc.sent == 2; reissued != (err == nil) || (!reissued && !errors.Is(err, jsonrpc.ErrResponseLost)) {
				t.Errorf("err = %v", err)
			}
			if err != nil && strings.Count(err.Error(), tc.method) != 1 {
				t.Errorf("the error names the method more than once, or never: %v", err)
			}
			if tc.method == "tools/call" && len(f.ParamsOf("tools/call")) > 1 {
				t.Errorf("the server ran the call %d times", len(f.ParamsOf("tools/call")))
			}
		})
	}
}

func TestLostResponseBoundIsReported(t *testing.T) {
	for _, era := range []Era{EraStateless, EraHandshake} {
		t.Run(era.String(), func(t *testing.T) {
			f := modernServer(t)
			var lossy *lossyStream
			s := connect(t, f, &Options{Era: era, WrapStream: func(st jsonrpc.Stream) jsonrpc.Stream {
				lossy = newLossy(func(m *rpcwire.Message) bool { return m.Method == "prompts/list" })(st).(*lossyStream)
				return lossy
			}})
			_, err := s.listPrompts(ctx5s(t), "")
			var lost *rpcwire.ResponseLostError
			if !errors.Is(err, jsonrpc.ErrResponseLost) || !errors.As(err, &lost) {
				t.Fatalf("err = %v, want a lost response", err)
			}
			if n := strings.Count(err.Error(), "prompts/list"); n != 1 {
				t.Errorf("the error names the method %d times, want once (one prefix per layer): %v", n, err)
			}
			want := 1 // the handshake era leaves resumption to the transport
			if era == EraStateless {
				want = 1 + maxLostRetries
			}
			if n := lossy.count("prompts/list"); n != want {
				t.Errorf("prompts/list went out %d times, want %d", n, want)
			}
		})
	}
}

// A server's own error codes (-32000 … -32099) are answers, whatever they
// are: a tool whose server says -32099 runs once.
func TestServerErrorIsNeverReissued(t *testing.T) {
	for _, era := range []Era{EraStateless, EraHandshake} {
		t.Run(era.String(), func(t *testing.T) {
			f := modernServer(t)
			var calls int
			var mu sync.Mutex
			f.Handle("tools/call", func(context.Context, *jsonrpc.Request) (any, error) {
				mu.Lock()
				calls++
				mu.Unlock()
				return nil, &jsonrpc.Error{Code: -32099, Message: "the server's own error", Data: json.RawMessage(`{"retry":false}`)}
			})
			s := connect(t, f, &Options{Era: era})
			_, err := s.CallTool(ctx5s(t), "t", nil)
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != -32099 {
				t.Errorf("err = %v, want the server's -32099", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if calls != 1 {
				t.Errorf("the server ran tools/call %d times, want exactly 1", calls)
			}
		})
	}
}
