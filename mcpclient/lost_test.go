package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// lossyStream stands in for a transport whose response streams break: it
// swallows the requests lose picks and reports their responses lost, out
// of band, as the HTTP transport does.
type lossyStream struct {
	jsonrpc.Stream
	lose func(m *jsonrpc.Message) bool

	once   sync.Once
	frames chan lossyRead
	mu     sync.Mutex
	sent   []string // the methods that went out (or were swallowed), in order
}

type lossyRead struct {
	frame []byte
	err   error
}

func newLossy(lose func(*jsonrpc.Message) bool) func(jsonrpc.Stream) jsonrpc.Stream {
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
	m, err := jsonrpc.Decode(frame)
	if err == nil && m.IsRequest() {
		l.mu.Lock()
		l.sent = append(l.sent, m.Method)
		l.mu.Unlock()
		if l.lose(m) {
			l.frames <- lossyRead{err: &jsonrpc.ResponseLostError{ID: m.ID, Reason: "the test broke the stream"}}
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

func TestLostResponseIsReissuedUnderANewID(t *testing.T) {
	f := modernServer(t)
	f.result("tools/call", `{"content":[{"type":"text","text":"ran"}]}`)
	first := true
	var lossy *lossyStream
	wrap := newLossy(func(m *jsonrpc.Message) bool {
		lose := m.Method == "tools/call" && first
		first = first && m.Method != "tools/call"
		return lose
	})
	s := connect(t, f, &Options{WrapStream: func(st jsonrpc.Stream) jsonrpc.Stream {
		w := wrap(st)
		lossy = w.(*lossyStream)
		return w
	}})
	res, err := s.CallTool(ctx5s(t), "t", nil)
	if err != nil || res.Text() != "ran" {
		t.Fatalf("CallTool = %+v, %v", res, err)
	}
	if n := lossy.count("tools/call"); n != 2 {
		t.Errorf("tools/call went out %d times, want 2 (lost once, re-issued once)", n)
	}
	if got := f.paramsOf("tools/call"); len(got) != 1 {
		t.Errorf("the server ran the call %d times, want 1", len(got))
	}
}

func TestLostResponseBoundIsReported(t *testing.T) {
	for _, era := range []Era{EraStateless, EraHandshake} {
		t.Run(era.String(), func(t *testing.T) {
			f := modernServer(t)
			var lossy *lossyStream
			s := connect(t, f, &Options{Era: era, WrapStream: func(st jsonrpc.Stream) jsonrpc.Stream {
				lossy = newLossy(func(m *jsonrpc.Message) bool { return m.Method == "tools/call" })(st).(*lossyStream)
				return lossy
			}})
			_, err := s.CallTool(ctx5s(t), "t", nil)
			var lost *jsonrpc.ResponseLostError
			if !errors.Is(err, jsonrpc.ErrResponseLost) || !errors.As(err, &lost) {
				t.Fatalf("err = %v, want a lost response", err)
			}
			if n := strings.Count(err.Error(), "tools/call"); n != 1 {
				t.Errorf("the error names the method %d times, want once (one prefix per layer): %v", n, err)
			}
			want := 1 // the handshake era leaves resumption to the transport
			if era == EraStateless {
				want = 1 + maxLostRetries
			}
			if n := lossy.count("tools/call"); n != want {
				t.Errorf("tools/call went out %d times, want %d", n, want)
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
			f.handle("tools/call", func(context.Context, *jsonrpc.Request) (any, error) {
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
