package jsonrpc

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// lossy reports, beside the frames, the responses it was told were lost.
type lossy struct {
	*memStream
	lost chan error
}

func (l *lossy) Read() ([]byte, error) {
	select {
	case err := <-l.lost:
		return nil, err
	case f := <-l.in:
		return f, nil
	case <-l.closed:
		return nil, ErrClosed
	}
}

// A lost response fails that one call with a *ResponseLostError — never a
// JSON-RPC error a peer could send — and the connection reads on.
func TestResponseLostFailsOneCall(t *testing.T) {
	checkGoroutines(t)
	a, b := memPipe()
	l := &lossy{memStream: a, lost: make(chan error, 1)}
	c := NewConn(l, nil)
	defer c.Close()
	peer := rawPeer{t, b}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, "first", nil, nil) }()
	if got := peer.recv(); got != `{"jsonrpc":"2.0","id":1,"method":"first"}` {
		t.Fatalf("peer got %s", got)
	}
	l.lost <- &rpcwire.ResponseLostError{ID: rpcwire.Int64ID(1), Reason: "stream broke"}
	err := <-errc
	var lost *rpcwire.ResponseLostError
	var rpcErr *Error
	if !errors.As(err, &lost) || !errors.Is(err, ErrResponseLost) || lost.ID != rpcwire.Int64ID(1) || errors.As(err, &rpcErr) {
		t.Fatalf("err = %v, want a *rpcwire.ResponseLostError for id 1", err)
	}

	// The connection lives on: the next call is answered as usual, and a
	// late response to the lost id is dropped, not misdelivered.
	go func() { errc <- c.Call(ctx, "second", nil, nil) }()
	peer.recv()
	peer.send(`{"jsonrpc":"2.0","id":1,"result":{"late":true}}`)
	peer.send(`{"jsonrpc":"2.0","id":2,"result":{}}`)
	if err := <-errc; err != nil {
		t.Fatalf("second call: %v", err)
	}
	if c.Err() != nil {
		t.Errorf("the conn stopped: %v", c.Err())
	}
}
