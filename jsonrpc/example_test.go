package jsonrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// chanStream is a minimal in-memory Stream for the examples: frames go
// through channels (the transport package has the full-featured Pipe).
type chanStream struct {
	in, out chan []byte
	once    sync.Once
	done    chan struct{}
}

func streamPair() (*chanStream, *chanStream) {
	ab, ba := make(chan []byte, 8), make(chan []byte, 8)
	return &chanStream{in: ba, out: ab, done: make(chan struct{})},
		&chanStream{in: ab, out: ba, done: make(chan struct{})}
}

func (s *chanStream) Read() ([]byte, error) {
	select {
	case f := <-s.in:
		return f, nil
	case <-s.done:
		return nil, io.EOF
	}
}

func (s *chanStream) Write(ctx context.Context, frame []byte) error {
	select {
	case s.out <- append([]byte(nil), frame...):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return jsonrpc.ErrClosed
	}
}

func (s *chanStream) Close() error { s.once.Do(func() { close(s.done) }); return nil }

// Two connections talk to each other: one answers "add", the other calls it.
func Example() {
	a, b := streamPair()
	server := jsonrpc.NewConn(b, &jsonrpc.Options{
		Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			if req.Method != "add" {
				return nil, jsonrpc.ErrMethodNotFound
			}
			var p struct{ A, B int }
			if err := json.Unmarshal(req.Params, &p); err != nil {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "add: %v", err)
			}
			return map[string]int{"sum": p.A + p.B}, nil
		},
	})
	defer server.Close()
	client := jsonrpc.NewConn(a, nil)
	defer client.Close()

	var res struct{ Sum int }
	if err := client.Call(context.Background(), "add", map[string]int{"a": 2, "b": 3}, &res); err != nil {
		fmt.Println(err)
	}
	fmt.Println("sum:", res.Sum)

	err := client.Call(context.Background(), "subtract", nil, nil)
	fmt.Println(errors.Is(err, jsonrpc.ErrMethodNotFound), err)
	// Output:
	// sum: 5
	// true calling subtract: jsonrpc error -32601: method not found
}
