package transport

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// pipeBuffer is how many frames may wait in each direction before Write
// blocks.
const pipeBuffer = 64

// pipeEnd is one end of an in-memory stream made by Pipe: what one end
// writes, the other reads. It implements jsonrpc.Stream: one goroutine at a
// time may Read, any number may Write, and Close is safe from any goroutine.
type pipeEnd struct {
	in   <-chan []byte
	out  chan<- []byte
	done chan struct{} // closed by this end's Close
	peer *pipeEnd
	once sync.Once
}

var _ jsonrpc.Stream = (*pipeEnd)(nil)

// Pipe returns two connected streams, for tests and for servers that run
// in the same process as their client: what one end writes, the other
// reads. On each end one goroutine at a time may Read, any number may
// Write, and Close is safe from any goroutine. Each direction buffers up
// to 64 frames; a Write beyond that waits for the other end to read, or
// for its ctx to end.
func Pipe() (a, b jsonrpc.Stream) {
	ab := make(chan []byte, pipeBuffer)
	ba := make(chan []byte, pipeBuffer)
	ea := &pipeEnd{in: ba, out: ab, done: make(chan struct{})}
	eb := &pipeEnd{in: ab, out: ba, done: make(chan struct{})}
	ea.peer, eb.peer = eb, ea
	return ea, eb
}

// Read returns the next frame the other end wrote. Once the other end is
// closed and the frames it wrote before are read, Read returns io.EOF.
// After this end's Close it returns an error wrapping jsonrpc.ErrClosed.
func (e *pipeEnd) Read() ([]byte, error) {
	if isDone(e.done) {
		return nil, fmt.Errorf("reading from pipe: %w", jsonrpc.ErrClosed)
	}
	select {
	case frame := <-e.in:
		return frame, nil
	case <-e.done:
		return nil, fmt.Errorf("reading from pipe: %w", jsonrpc.ErrClosed)
	case <-e.peer.done:
		// Frames written before the peer closed are queued by now; they
		// come first.
		select {
		case frame := <-e.in:
			return frame, nil
		default:
			return nil, io.EOF
		}
	}
}

// Write hands a copy of frame to the other end. It returns ctx.Err() if
// ctx ends while the buffer is full, an error wrapping jsonrpc.ErrClosed
// after this end's Close, and one wrapping io.ErrClosedPipe when the other
// end is closed.
func (e *pipeEnd) Write(ctx context.Context, frame []byte) error {
	switch {
	case isDone(e.done):
		return fmt.Errorf("writing to pipe: %w", jsonrpc.ErrClosed)
	case isDone(e.peer.done):
		return fmt.Errorf("writing to pipe: %w", io.ErrClosedPipe)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	frame = append(make([]byte, 0, len(frame)), frame...)
	select {
	case e.out <- frame:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-e.done:
		return fmt.Errorf("writing to pipe: %w", jsonrpc.ErrClosed)
	case <-e.peer.done:
		return fmt.Errorf("writing to pipe: %w", io.ErrClosedPipe)
	}
}

// Close closes this end. The other end reads what was already written,
// then io.EOF. Close is idempotent and always returns nil.
func (e *pipeEnd) Close() error {
	e.once.Do(func() { close(e.done) })
	return nil
}
