package jsonrpc

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// notifyingStream is a callerStream that is a ReadNotifier too: it counts
// its Reads, and the test decides when Read has something (ready).
type notifyingStream struct {
	*callerStream
	reads atomic.Int32

	mu     sync.Mutex
	notify func()
}

func (s *notifyingStream) Read() ([]byte, error) {
	s.reads.Add(1)
	return s.callerStream.Read()
}

func (s *notifyingStream) NotifyRead(f func()) {
	s.mu.Lock()
	s.notify = f
	s.mu.Unlock()
}

// ready is the stream's notice that Read has something.
func (s *notifyingStream) ready() {
	s.mu.Lock()
	f := s.notify
	s.mu.Unlock()
	f()
}

func newNotifying(answer func(context.Context, ID) ([]byte, error)) (*notifyingStream, rawPeer) {
	a, b := memPipe()
	return &notifyingStream{callerStream: &callerStream{memStream: a, answer: answer}}, rawPeer{s: b}
}

func answerSeven(_ context.Context, id ID) ([]byte, error) {
	return []byte(`{"jsonrpc":"2.0","id":` + id.String() + `,"result":{"n":7}}`), nil
}

// Over a ReadNotifier whose answers all come through Call, the Conn never
// reads: no read loop runs, nor the notification dispatcher, and Close
// has neither to wait for.
func TestNoReadLoopUntilTheStreamHasSomething(t *testing.T) {
	leakcheck.Check(t)
	s, _ := newNotifying(answerSeven)
	before := runtime.NumGoroutine()
	c := NewConn(s, &Options{OnNotification: func(context.Context, *Request) {}})
	if n := runtime.NumGoroutine(); n != before {
		t.Errorf("NewConn started %d goroutines before the stream had anything", n-before)
	}
	for range 3 {
		var res struct{ N int }
		if err := c.Call(context.Background(), "m", nil, &res); err != nil || res.N != 7 {
			t.Fatalf("got %+v, %v; want n 7", res, err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if n := s.reads.Load(); n != 0 {
		t.Errorf("the Conn read %d times from a stream that had nothing", n)
	}
	s.ready() // a notice after Close starts nothing
	if n := s.reads.Load(); n != 0 {
		t.Errorf("a notice after Close started a read loop (%d reads)", n)
	}
	if !errors.Is(c.Err(), ErrClosed) {
		t.Errorf("Err after Close: %v", c.Err())
	}
}

// Once the stream says Read has something, the read loop runs: a
// notification and the stream's end reach the Conn.
func TestReadLoopStartsOnNotice(t *testing.T) {
	leakcheck.Check(t)
	s, peer := newNotifying(answerSeven)
	peer.t = t
	got := make(chan string, 1)
	c := NewConn(s, &Options{OnNotification: func(_ context.Context, req *Request) { got <- req.Method }})
	defer c.Close()
	peer.send(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)
	s.ready()
	s.ready() // a second notice is harmless
	select {
	case m := <-got:
		if m != "notifications/message" {
			t.Errorf("got %q", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the notification did not arrive after the notice")
	}
	peer.s.Close()
	select {
	case <-c.Done():
		if !errors.Is(c.Err(), ErrDisconnected) {
			t.Errorf("Err: %v, want ErrDisconnected", c.Err())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream's end did not stop the Conn")
	}
}

// NotifyRead calls f at once for a stream that cannot notify.
func TestNotifyReadWithoutANotifier(t *testing.T) {
	a, _ := memPipe()
	called := false
	rpcwire.NotifyRead(a, func() { called = true })
	if !called {
		t.Error("f was not called for a plain Stream")
	}
}
