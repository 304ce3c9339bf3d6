package jsonrpc

import "context"

// Stream moves whole JSON-RPC frames: one JSON value (an object, or an array
// for a batch) per frame. It is the seam between this package and the
// transports: a Conn reads and writes frames and never learns where they go.
//
// Read is called by one goroutine at a time (the Conn's read loop). Write may
// be called from many goroutines at once; a Stream that needs ordering (a
// pipe, a stdio process) serializes writes itself so frames never
// interleave. Close may be called at any time, more than once, from any
// goroutine, and must unblock a Read or Write in progress.
type Stream interface {
	// Read returns the next frame. The returned slice belongs to the caller
	// and is never reused by the Stream. Read returns io.EOF when the peer
	// ended the stream cleanly, another error when it broke, and an error
	// wrapping ErrClosed after Close.
	Read() ([]byte, error)

	// Write sends one frame. It must not keep frame after it returns. It
	// returns ctx.Err() if ctx ends before the frame is handed on.
	Write(ctx context.Context, frame []byte) error

	// Close ends the stream and releases what it holds. It is idempotent.
	Close() error
}
