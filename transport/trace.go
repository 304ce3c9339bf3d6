package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Trace returns a stream that behaves like s and also writes every frame
// to w, one per line: "label -> frame" for a frame sent, "label <- frame"
// for one received, and "label -> (not sent: error)" after a failed write.
// A sent frame is printed before it is written, so that a request always
// precedes its response in the trace.
//
// Lines are written to w whole, one at a time, and write errors are
// ignored: tracing never breaks the stream. The returned stream has the
// same concurrency contract as s.
func Trace(s jsonrpc.Stream, w io.Writer, label string) jsonrpc.Stream {
	prefix := label + " "
	if label == "" {
		prefix = ""
	}
	return &traced{s: s, w: w, prefix: prefix}
}

type traced struct {
	s      jsonrpc.Stream
	prefix string
	mu     sync.Mutex // serializes writes to w
	w      io.Writer
}

func (t *traced) Read() ([]byte, error) {
	frame, err := t.s.Read()
	var lost *rpcwire.ResponseLostError
	switch {
	case err == nil:
		t.print("<- ", frame)
	case errtype.As(err, &lost):
		t.print("<- ", []byte("(lost: "+lost.Error()+")"))
	}
	return frame, err
}

// NotifyRead passes on the Conn's wish to hear when Read first has
// something (rpcwire.ReadNotifier).
func (t *traced) NotifyRead(f func()) { rpcwire.NotifyRead(t.s, f) }

func (t *traced) Write(ctx context.Context, frame []byte) error {
	t.print("-> ", frame)
	err := t.s.Write(ctx, frame)
	if err != nil {
		t.print("-> ", []byte("(not sent: "+err.Error()+")"))
	}
	return err
}

// Call passes a request to a stream that answers it directly
// (rpcwire.Caller) and prints the answer it returns; a response that
// comes through Read instead is printed there.
func (t *traced) Call(ctx context.Context, id jsonrpc.ID, method string, frame []byte) ([]byte, error) {
	c, ok := t.s.(rpcwire.Caller)
	if !ok {
		return nil, t.Write(ctx, frame)
	}
	t.print("-> ", frame)
	answer, err := c.Call(ctx, id, method, frame)
	var lost *rpcwire.ResponseLostError
	switch {
	case answer != nil:
		t.print("<- ", answer)
	case errtype.As(err, &lost):
		t.print("<- ", []byte("(lost: "+lost.Error()+")"))
	case err != nil && !errors.Is(err, rpcwire.ErrBadResponse):
		t.print("-> ", []byte("(no answer: "+err.Error()+")"))
	}
	return answer, err
}

func (t *traced) Close() error { return t.s.Close() }

// SetProtocol passes the agreed protocol on to the stream under the trace,
// if it takes one.
func (t *traced) SetProtocol(p Protocol) {
	if ps, ok := t.s.(ProtocolSetter); ok {
		ps.SetProtocol(p)
	}
}

// print writes one trace line. Line breaks inside the frame become spaces,
// so that a pretty-printed frame still takes one line.
func (t *traced) print(arrow string, frame []byte) {
	line := make([]byte, 0, len(t.prefix)+len(arrow)+len(frame)+1)
	line = append(line, t.prefix...)
	line = append(line, arrow...)
	line = append(line, frame...)
	if bytes.ContainsAny(frame, "\r\n") {
		body := line[len(line)-len(frame):]
		for i, c := range body {
			if c == '\r' || c == '\n' {
				body[i] = ' '
			}
		}
	}
	line = append(line, '\n')
	t.mu.Lock()
	defer t.mu.Unlock()
	t.w.Write(line)
}
