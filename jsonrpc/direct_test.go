package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// callerStream is a memStream that is also a Caller: each Call is
// answered by answer, given the request's id.
type callerStream struct {
	*memStream
	answer func(ctx context.Context, id ID) ([]byte, error)
	calls  atomic.Int32
}

func (s *callerStream) Call(ctx context.Context, id ID, method string, frame []byte) ([]byte, error) {
	s.calls.Add(1)
	if !strings.Contains(string(frame), `"method":"`+method+`"`) || !strings.Contains(string(frame), `"id":`+id.String()) {
		return nil, fmt.Errorf("frame %s is not the request %s %s", frame, id, method)
	}
	return s.answer(ctx, id)
}

func TestCallerAnswersDirectly(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  func(id ID) string
		err     error  // matched with errors.Is; nil: the call succeeds
		mention string // in the error
	}{
		{"the response", func(id ID) string { return `{"jsonrpc":"2.0","id":` + id.String() + `,"result":{"n":7}}` }, nil, ""},
		{"an error response", func(id ID) string {
			return `{"jsonrpc":"2.0","id":` + id.String() + `,"error":{"code":-32601,"message":"no such method"}}`
		}, ErrMethodNotFound, "no such method"},
		{"another request's response", func(ID) string { return `{"jsonrpc":"2.0","id":99,"result":{}}` }, rpcwire.ErrBadResponse, "another request (id 99)"},
		{"a notification", func(ID) string { return `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}` }, rpcwire.ErrBadResponse, "not a response"},
		{"no JSON-RPC", func(ID) string { return `{"id":1}` }, rpcwire.ErrBadResponse, "no JSON-RPC message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leakcheck.Check(t)
			a, _ := memPipe()
			s := &callerStream{memStream: a, answer: func(_ context.Context, id ID) ([]byte, error) { return []byte(tc.answer(id)), nil }}
			c := NewConn(s, nil)
			defer c.Close()
			var res struct{ N int }
			err := c.Call(context.Background(), "m", map[string]int{"x": 1}, &res)
			switch {
			case tc.err == nil && (err != nil || res.N != 7):
				t.Errorf("got %+v, %v; want n 7", res, err)
			case tc.err != nil && (!errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.mention)):
				t.Errorf("got %v, want %v mentioning %q", err, tc.err, tc.mention)
			}
			if s.calls.Load() != 1 {
				t.Errorf("%d calls of Call, want 1", s.calls.Load())
			}
		})
	}
}

// A Caller that hands the response to Read instead (messages came ahead
// of it) leaves the call waiting for the read loop, which delivers it.
func TestCallerMayLeaveTheAnswerToRead(t *testing.T) {
	leakcheck.Check(t)
	a, b := memPipe()
	peer := rawPeer{t, b}
	var seen atomic.Bool
	s := &callerStream{memStream: a, answer: func(_ context.Context, id ID) ([]byte, error) {
		peer.send(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`)
		peer.send(`{"jsonrpc":"2.0","id":` + id.String() + `,"result":{"n":7}}`)
		return nil, nil
	}}
	c := NewConn(s, &Options{Intercept: func(n *Request) bool { seen.Store(true); return true }})
	defer c.Close()
	var res struct{ N int }
	if err := c.Call(context.Background(), "m", nil, &res); err != nil || res.N != 7 {
		t.Fatalf("got %+v, %v", res, err)
	}
	if !seen.Load() {
		t.Error("the notification ahead of the response had not reached Intercept when the call returned")
	}
}

// The failures a Caller returns for its request end that call alone;
// the end of the caller's context is reported to OnAbandon; Close ends a
// Call in progress.
func TestCallerFailures(t *testing.T) {
	for _, tc := range []struct {
		name      string
		answer    func(ctx context.Context, id ID) ([]byte, error)
		cancel    bool // cancel the call's context once its request reached the stream
		close     bool // close the Conn after a moment
		err       error
		abandoned bool
	}{
		{"lost", func(_ context.Context, id ID) ([]byte, error) {
			return nil, &rpcwire.ResponseLostError{ID: id, Reason: "the stream broke"}
		}, false, false, ErrResponseLost, false},
		{"bad", func(_ context.Context, id ID) ([]byte, error) {
			return nil, &rpcwire.BadResponseError{ID: id, Reason: "202"}
		}, false, false, rpcwire.ErrBadResponse, false},
		{"cancelled", func(ctx context.Context, id ID) ([]byte, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, true, false, context.Canceled, true},
		{"closed", func(ctx context.Context, id ID) ([]byte, error) {
			time.Sleep(20 * time.Millisecond) // a transport slow to notice its end (the subject)
			return nil, fmt.Errorf("transport: %w", ErrClosed)
		}, false, true, ErrClosed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leakcheck.Check(t)
			a, _ := memPipe()
			var abandoned atomic.Bool
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			answer := tc.answer
			if tc.cancel {
				// Cancelled once the request is on its way, not after a
				// timer: a timer that fired before Call began (a loaded
				// machine) made a call that was never sent, so never
				// abandoned.
				answer = func(ctx context.Context, id ID) ([]byte, error) {
					cancel()
					return tc.answer(ctx, id)
				}
			}
			c := NewConn(&callerStream{memStream: a, answer: answer}, &Options{OnAbandon: func(ID, string) { abandoned.Store(true) }})
			defer c.Close()
			if tc.close {
				go c.Close()
			}
			err := c.Call(ctx, "m", nil, nil)
			if !errors.Is(err, tc.err) {
				t.Errorf("got %v, want %v", err, tc.err)
			}
			if abandoned.Load() != tc.abandoned {
				t.Errorf("abandoned: %v, want %v", abandoned.Load(), tc.abandoned)
			}
			if !tc.close && c.Err() != nil {
				t.Errorf("the connection stopped: %v", c.Err())
			}
		})
	}
}
