package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestCancelSendsNotification(t *testing.T) {
	f := fakemcp.New(t)
	var reqID jsonrpc.ID
	got := make(chan struct{})
	f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		reqID = r.ID
		close(got)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s := connect(t, f, nil)
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() { _, err := s.CallTool(ctx, "slow", nil); errs <- err }()
	<-got
	start := time.Now()
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("cancelled call took %v to return", d)
	}
	n := f.WaitNote("notifications/cancelled")
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
		Reason    string     `json:"reason"`
	}
	json.Unmarshal(n.Params, &p)
	if p.RequestID != reqID || p.Reason == "" {
		t.Errorf("cancelled %s (reason %q), want %s", p.RequestID, p.Reason, reqID)
	}
}

// A host that cancels a call and closes the session at once (Ctrl-C) still
// tells the server: Close lets the cancellation notice out first.
func TestCancelThenCloseStillNotifies(t *testing.T) {
	for range 20 {
		f := fakemcp.New(t)
		got := make(chan struct{})
		f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
			close(got)
			<-ctx.Done()
			return nil, ctx.Err()
		})
		s := connect(t, f, nil)
		ctx, cancel := context.WithCancel(context.Background())
		errs := make(chan error, 1)
		go func() { _, err := s.CallTool(ctx, "slow", nil); errs <- err }()
		<-got
		cancel()
		<-errs
		s.Close()
		f.WaitNote("notifications/cancelled")
	}
}

// wrapCount counts the frames through a stream.
type wrapCount struct {
	jsonrpc.Stream
	in, out *int64
	mu      *sync.Mutex
}

func (w wrapCount) Read() ([]byte, error) {
	b, err := w.Stream.Read()
	if err == nil {
		w.mu.Lock()
		*w.in++
		w.mu.Unlock()
	}
	return b, err
}

func (w wrapCount) Write(ctx context.Context, frame []byte) error {
	w.mu.Lock()
	*w.out++
	w.mu.Unlock()
	return w.Stream.Write(ctx, frame)
}

func TestWrapStreamSeesEveryFrame(t *testing.T) {
	f := fakemcp.New(t)
	f.Result("tools/call", `{"content":[]}`)
	var in, out int64
	var mu sync.Mutex
	s := connect(t, f, &Options{WrapStream: func(st jsonrpc.Stream) jsonrpc.Stream {
		return wrapCount{Stream: st, in: &in, out: &out, mu: &mu}
	}})
	mu.Lock()
	in0, out0 := in, out
	mu.Unlock()
	if in0 == 0 || out0 == 0 {
		t.Fatalf("the handshake did not pass through the wrapper: %d in, %d out", in0, out0)
	}
	if _, err := s.CallTool(ctx5s(t), "x", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if in != in0+1 || out != out0+1 {
		t.Errorf("one call: %d frames in, %d out; want 1 and 1", in-in0, out-out0)
	}
}
