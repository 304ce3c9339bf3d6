package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// newPair connects a Conn under test with a raw peer.
func newPair(t *testing.T, opts *Options) (*Conn, rawPeer, *logSink) {
	t.Helper()
	checkGoroutines(t)
	a, b := memPipe()
	sink := &logSink{}
	if opts == nil {
		opts = &Options{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(sink, nil))
	}
	c := NewConn(a, opts)
	t.Cleanup(func() { c.Close(); b.Close() })
	return c, rawPeer{t, b}, sink
}

func TestCallAndResponse(t *testing.T) {
	c, peer, _ := newPair(t, nil)
	type result struct{ Sum int }
	done := make(chan error, 1)
	var got result
	go func() { done <- c.Call(context.Background(), "add", map[string]int{"a": 1}, &got) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	if req.Method != "add" || string(req.Params) != `{"a":1}` || !req.ID.IsValid() {
		t.Fatalf("request = %+v", req)
	}
	peer.send(string(rpcwire.AppendResult(nil, req.ID, json.RawMessage(`{"Sum":3}`))))
	if err := <-done; err != nil || got.Sum != 3 {
		t.Fatalf("Call = %v, %+v", err, got)
	}
}

func TestCallErrorResponse(t *testing.T) {
	c, peer, _ := newPair(t, nil)
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "nope", nil, nil) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	peer.send(string(rpcwire.AppendError(nil, req.ID, &Error{Code: CodeMethodNotFound, Message: "no", Data: json.RawMessage(`"d"`)})))
	err := <-done
	var e *Error
	if !errors.Is(err, ErrMethodNotFound) || !errors.As(err, &e) || string(e.Data) != `"d"` {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "nope") {
		t.Errorf("error %q does not name the method", err)
	}
}

func TestRawResult(t *testing.T) {
	c, peer, _ := newPair(t, nil)
	var raw json.RawMessage
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "m", json.RawMessage(`{"x":[1]}`), &raw) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	if string(req.Params) != `{"x":[1]}` {
		t.Errorf("raw params re-encoded: %s", req.Params)
	}
	peer.send(`{"jsonrpc":"2.0","id":` + req.ID.String() + `,"result": {"a" : 1 }}`)
	if err := <-done; err != nil || string(raw) != `{"a" : 1 }` {
		t.Fatalf("raw = %s, %v", raw, err)
	}
}

func TestBadFramesAreSkipped(t *testing.T) {
	c, peer, log := newPair(t, nil)
	done := make(chan error, 1)
	var got int
	go func() { done <- c.Call(context.Background(), "m", nil, &got) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	for _, bad := range []string{
		`not json at all`,
		`{"jsonrpc":"2.0","id":` + req.ID.String() + `,"result":`, // truncated: no id to trust
		`{"jsonrpc":"2.0","id":99999,"result":5}`,                 // unknown id
		`{"jsonrpc":"1.0","id":99998,"result":5}`,                 // bad, for no call of ours
		`[]`,
	} {
		peer.send(bad)
	}
	peer.send(`{"jsonrpc":"2.0","id":` + req.ID.String() + `,"result":7}`)
	peer.send(`{"jsonrpc":"2.0","id":` + req.ID.String() + `,"result":8}`) // duplicate
	if err := <-done; err != nil || got != 7 {
		t.Fatalf("Call = %d, %v", got, err)
	}
	log.waitFor(t, "already answered id\" id=99999")
	log.waitFor(t, "already answered id\" id="+req.ID.String())
	for _, want := range []string{"not a JSON object", "malformed", `undecodable response`, "empty batch"} {
		log.waitFor(t, want)
	}
	if c.Err() != nil {
		t.Fatalf("conn stopped: %v", c.Err())
	}
}

// A response frame that names a call's id but cannot be decoded ends that
// call at once, with an error that says why; other calls go on.
func TestUndecodableResponseEndsItsCall(t *testing.T) {
	for _, bad := range []string{
		`{"jsonrpc":"1.0","id":%s,"result":5}`,
		`{"jsonrpc":"2.0","id":%s}`,
		`{"jsonrpc":"2.0","id":%s,"result":1,"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":%s,"error":{}}`,
		// Nested deeper than any decoder goes, the id before and after.
		`{"jsonrpc":"2.0","id":%s,"result":{"a":` + strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6) + `}}`,
		`{"jsonrpc":"2.0","result":` + strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6) + `,"id":%s}`,
	} {
		t.Run(bad[:min(len(bad), 60)], func(t *testing.T) {
			c, peer, _ := newPair(t, nil)
			done := make(chan error, 1)
			go func() { done <- c.Call(context.Background(), "m", nil, nil) }()
			req, _ := rpcwire.Decode([]byte(peer.recv()))
			peer.send(fmt.Sprintf(bad, req.ID.String()))
			select {
			case err := <-done:
				var br *rpcwire.BadResponseError
				if !errors.As(err, &br) || !errors.Is(err, rpcwire.ErrBadResponse) || br.ID != req.ID {
					t.Fatalf("err = %v, want a *rpcwire.BadResponseError for id %s", err, req.ID)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the call still waits")
			}
			if c.Err() != nil {
				t.Errorf("the conn stopped: %v", c.Err())
			}
		})
	}
}

func TestPeerRequests(t *testing.T) {
	handler := func(ctx context.Context, req *Request) (any, error) {
		switch req.Method {
		case "echo":
			return req.Params, nil
		case "fail":
			return nil, &Error{Code: -32002, Message: "resource not found"}
		case "plain error":
			return nil, errors.New("boom")
		case "panic":
			panic("handler bug")
		case "struct":
			return struct {
				A string `json:"a"`
			}{"<&>"}, nil
		}
		return nil, ErrMethodNotFound
	}
	_, peer, log := newPair(t, &Options{Handler: handler})
	for _, tc := range []struct{ req, want string }{
		{`{"jsonrpc":"2.0","id":"s1","method":"echo","params":{"k":"v"}}`, `{"jsonrpc":"2.0","id":"s1","result":{"k":"v"}}`},
		{`{"jsonrpc":"2.0","id":2.50,"method":"fail"}`, `{"jsonrpc":"2.0","id":2.50,"error":{"code":-32002,"message":"resource not found"}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"plain error"}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"boom"}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"panic"}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"internal error while handling panic"}}`},
		{`{"jsonrpc":"2.0","id":5,"method":"unknown"}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found"}}`},
		{`{"jsonrpc":"2.0","id":6,"method":"struct"}`, `{"jsonrpc":"2.0","id":6,"result":{"a":"<&>"}}`},
	} {
		peer.send(tc.req)
		if got := peer.recv(); got != tc.want {
			t.Errorf("for %s\n got %s\nwant %s", tc.req, got, tc.want)
		}
	}
	log.waitFor(t, "handler panicked")
}

func TestNilHandlerAnswersMethodNotFound(t *testing.T) {
	_, peer, _ := newPair(t, nil)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage"}`)
	if got := peer.recv(); !strings.Contains(got, `"code":-32601`) || !strings.Contains(got, "sampling/createMessage") {
		t.Errorf("got %s", got)
	}
}

func TestNotificationsInOrder(t *testing.T) {
	var mu sync.Mutex
	var got []string
	all := make(chan struct{})
	notify := func(ctx context.Context, r *Request) {
		time.Sleep(time.Millisecond) // a slow consumer must not reorder
		mu.Lock()
		got = append(got, string(r.Params))
		if len(got) == 50 {
			close(all)
		}
		mu.Unlock()
	}
	_, peer, _ := newPair(t, &Options{OnNotification: notify})
	var want []string
	for i := range 50 {
		p, _ := json.Marshal(map[string]int{"n": i})
		want = append(want, string(p))
		if i%10 == 0 {
			peer.send(`[` + string(rpcwire.AppendRequest(nil, ID{}, "n", p)) + `]`)
		} else {
			peer.send(string(rpcwire.AppendRequest(nil, ID{}, "n", p)))
		}
	}
	select {
	case <-all:
	case <-time.After(5 * time.Second):
		t.Fatal("notifications not delivered")
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order:\n got %v\nwant %v", got, want)
	}
}

func TestSlowHandlerDoesNotStallResponses(t *testing.T) {
	release := make(chan struct{})
	handler := func(ctx context.Context, req *Request) (any, error) {
		<-release
		return "late", nil
	}
	c, peer, _ := newPair(t, &Options{Handler: handler})
	defer close(release)
	peer.send(`{"jsonrpc":"2.0","id":"slow","method":"sampling/createMessage"}`)
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "ping", nil, nil) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	peer.send(string(rpcwire.AppendResult(nil, req.ID, nil)))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a slow handler stalled our call")
	}
}

func TestBatchAnsweredAsArray(t *testing.T) {
	var notes []string
	var mu sync.Mutex
	handler := func(ctx context.Context, req *Request) (any, error) {
		return req.Method, nil
	}
	notify := func(ctx context.Context, r *Request) { mu.Lock(); notes = append(notes, r.Method); mu.Unlock() }
	c, peer, _ := newPair(t, &Options{Handler: handler, OnNotification: notify})
	done := make(chan error, 1)
	var got string
	go func() { done <- c.Call(context.Background(), "ours", nil, &got) }()
	ours, _ := rpcwire.Decode([]byte(peer.recv()))
	peer.send(`[{"jsonrpc":"2.0","id":"a","method":"x"},{"jsonrpc":"2.0","method":"note"},` +
		`{"jsonrpc":"2.0","id":` + ours.ID.String() + `,"result":"r"},{"jsonrpc":"2.0","id":"b","method":"y"}]`)
	if err := <-done; err != nil || got != "r" {
		t.Fatalf("our call in a batch: %q %v", got, err)
	}
	var answers []map[string]any
	if err := json.Unmarshal([]byte(peer.recv()), &answers); err != nil {
		t.Fatalf("batch answer is not an array: %v", err)
	}
	if len(answers) != 2 || answers[0]["id"] != "a" || answers[1]["result"] != "y" {
		t.Errorf("answers = %v", answers)
	}
}

func TestCancelledCallAbandons(t *testing.T) {
	abandoned := make(chan string, 1)
	c, peer, _ := newPair(t, &Options{OnAbandon: func(id ID, method string) { abandoned <- id.String() + " " + method }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "slow", nil, nil) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := <-abandoned; got != req.ID.String()+" slow" {
		t.Errorf("OnAbandon got %q", got)
	}
	// The late response is reported as unknown, not delivered anywhere.
	peer.send(string(rpcwire.AppendResult(nil, req.ID, nil)))
	if err := c.Call(ctxTimeout(t), "after", nil, nil); err == nil {
		t.Fatal("no response was sent, Call must time out")
	}
}

func ctxTimeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	t.Cleanup(cancel)
	return ctx
}

func TestStreamEndFailsPendingCalls(t *testing.T) {
	c, peer, _ := newPair(t, nil)
	const n = 10
	errs := make(chan error, n)
	for range n {
		go func() { errs <- c.Call(context.Background(), "m", nil, nil) }()
	}
	for range n {
		peer.recv()
	}
	peer.s.Close() // the peer hangs up
	for range n {
		select {
		case err := <-errs:
			if !errors.Is(err, ErrDisconnected) {
				t.Errorf("err = %v, want ErrDisconnected", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("pending call not failed when the stream ended")
		}
	}
	<-c.Done()
	if err := c.Call(context.Background(), "later", nil, nil); !errors.Is(err, ErrDisconnected) {
		t.Errorf("call after stop: %v", err)
	}
	if err := c.Notify(context.Background(), "later", nil); !errors.Is(err, ErrDisconnected) {
		t.Errorf("notify after stop: %v", err)
	}
}

// failingStream's Read fails with its own reason once fail is closed.
type failingStream struct {
	*memStream
	fail chan struct{}
}

func (f *failingStream) Read() ([]byte, error) {
	<-f.fail
	return nil, errors.New("server exited with status 3: boom")
}

func TestStopWrapsCause(t *testing.T) {
	checkGoroutines(t)
	a, _ := memPipe()
	s := &failingStream{memStream: a, fail: make(chan struct{})}
	c := NewConn(s, nil)
	close(s.fail)
	<-c.Done()
	err := c.Call(context.Background(), "m", nil, nil)
	if !errors.Is(err, ErrDisconnected) || !strings.Contains(err.Error(), "status 3: boom") {
		t.Errorf("err = %v", err)
	}
	c.Close()
}

func TestCloseFailsPendingAndIsIdempotent(t *testing.T) {
	c, peer, _ := newPair(t, nil)
	errs := make(chan error, 1)
	go func() { errs <- c.Call(context.Background(), "m", nil, nil) }()
	peer.recv()
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() { defer wg.Done(); c.Close() }()
	}
	wg.Wait()
	if err := <-errs; !errors.Is(err, ErrClosed) {
		t.Errorf("pending call got %v, want ErrClosed", err)
	}
	if !errors.Is(c.Err(), ErrClosed) {
		t.Errorf("Err() = %v", c.Err())
	}
}

func TestCancelPeerRequest(t *testing.T) {
	started := make(chan struct{})
	stopped := make(chan error, 1)
	handler := func(ctx context.Context, req *Request) (any, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return nil, ctx.Err()
	}
	c, peer, _ := newPair(t, &Options{Handler: handler})
	peer.send(`{"jsonrpc":"2.0","id":"long","method":"sampling/createMessage"}`)
	<-started
	if !c.CancelPeerRequest(rpcwire.StringID("long")) {
		t.Fatal("Cancel found no such request")
	}
	if err := <-stopped; !errors.Is(err, context.Canceled) {
		t.Errorf("handler ctx: %v", err)
	}
	if c.CancelPeerRequest(rpcwire.StringID("long")) {
		t.Error("second Cancel reported success")
	}
	// No answer is sent for a cancelled request; the next frame is ours.
	go c.Notify(context.Background(), "marker", nil)
	if got := peer.recv(); !strings.Contains(got, "marker") {
		t.Errorf("a cancelled request was answered: %s", got)
	}
}

func TestCloseCancelsHandlers(t *testing.T) {
	started, stopped := make(chan struct{}), make(chan struct{})
	handler := func(ctx context.Context, req *Request) (any, error) {
		close(started)
		<-ctx.Done()
		close(stopped)
		return nil, nil
	}
	c, peer, _ := newPair(t, &Options{Handler: handler})
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"wait"}`)
	<-started // Close must meet a running handler
	c.Close()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("handler context not cancelled by Close")
	}
}

func TestWriteErrorIsReturned(t *testing.T) {
	checkGoroutines(t)
	a, b := memPipe()
	c := NewConn(a, nil)
	defer c.Close()
	b.Close()
	<-c.Done()
	err := c.Call(context.Background(), "m", nil, nil)
	if err == nil || errors.Is(err, io.EOF) && !errors.Is(err, ErrDisconnected) {
		t.Errorf("err = %v", err)
	}
}

func TestInterceptRunsBeforeLaterResponses(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	intercept := func(n *Request) bool {
		mu.Lock()
		seen = append(seen, n.Method)
		mu.Unlock()
		return n.Method == "progress"
	}
	queued := make(chan string, 10)
	c, peer, _ := newPair(t, &Options{Intercept: intercept, OnNotification: func(_ context.Context, n *Request) { queued <- n.Method }})
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "m", nil, nil) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	peer.send(`{"jsonrpc":"2.0","method":"progress"}`)
	peer.send(`{"jsonrpc":"2.0","method":"other"}`)
	peer.send(string(rpcwire.AppendResult(nil, req.ID, nil)))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	got := strings.Join(seen, ",")
	mu.Unlock()
	if got != "progress,other" {
		t.Errorf("intercepted %q before the response was delivered", got)
	}
	if m := <-queued; m != "other" {
		t.Errorf("queued %q; the consumed notification must not be queued", m)
	}
}

// A peer that floods us with requests gets at most MaxPeerRequests handled
// at once; the rest are answered with an error straight away, without a
// goroutine each.
func TestPeerRequestFloodIsBounded(t *testing.T) {
	release := make(chan struct{})
	var running, most atomic.Int64
	handler := func(ctx context.Context, req *Request) (any, error) {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		defer running.Add(-1)
		<-release
		return "ok", nil
	}
	_, peer, _ := newPair(t, &Options{Handler: handler, MaxPeerRequests: 8})
	const flood = 500
	go func() {
		for i := range flood {
			peer.s.Write(context.Background(), []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)))
		}
	}()
	refused := 0
	for refused < flood-8 {
		m, err := rpcwire.Decode([]byte(peer.recv()))
		if err != nil || m.Error == nil || !strings.Contains(m.Error.Message, "too many requests in flight") {
			t.Fatalf("got %+v, %v; want a refusal", m, err)
		}
		refused++
	}
	if g := runtime.NumGoroutine(); g > 100 {
		t.Errorf("%d goroutines during a flood of %d requests", g, flood)
	}
	close(release)
	for range 8 {
		if m, _ := rpcwire.Decode([]byte(peer.recv())); m == nil || string(m.Result) != `"ok"` {
			t.Fatalf("a handled request got %+v", m)
		}
	}
	if most.Load() != 8 {
		t.Errorf("at most %d handlers ran at once, want 8", most.Load())
	}
}

// TestNilSlogLoggerIsSilent: a nil *slog.Logger in Options is no nil
// interface, and its methods panic; the Conn treats it as no logger, as
// it did when the field was a *slog.Logger.
func TestNilSlogLoggerIsSilent(t *testing.T) {
	var none *slog.Logger
	c, peer, _ := newPair(t, &Options{Logger: none})
	peer.send(`{"jsonrpc":"2.0","id":99999,"result":5}`) // logged: unknown id
	peer.send(`not json at all`)                         // logged: dropped
	done := make(chan error, 1)
	var got int
	go func() { done <- c.Call(context.Background(), "m", nil, &got) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	peer.send(`{"jsonrpc":"2.0","id":` + req.ID.String() + `,"result":7}`)
	if err := <-done; err != nil || got != 7 {
		t.Fatalf("Call = %d, %v", got, err)
	}
}
