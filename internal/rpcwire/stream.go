package rpcwire

import "context"

// frames is jsonrpc.Stream's method set, restated here because wire sits
// below jsonrpc: any jsonrpc.Stream is one, and a Caller or ReadNotifier
// is a jsonrpc.Stream.
type frames interface {
	Read() ([]byte, error)
	Write(ctx context.Context, frame []byte) error
	Close() error
}

// A Caller is a Stream that can carry a request to its response by itself:
// the transport knows which answer belongs to which request (an HTTP POST
// is answered on its own response), so the calling goroutine can read that
// answer and complete the call, with no trip through Read, the read loop
// and the pending map. A Conn looks for it with a type assertion; a Stream
// without it (stdio, a pipe, a wrapper that does not pass it on) works as
// before, through Write and Read.
//
// Call sends frame, a request with the given id and method, as Write does,
// and may be called from many goroutines at once. It returns one of:
//
//   - the frame the transport holds to be the response to this request.
//     The slice belongs to the caller. The Conn checks it (a response, with
//     this id) and completes the call with it; it never reaches Read.
//   - nil and a nil error: the request went out and its response comes
//     through Read, as after Write. A transport answers so when messages
//     arrived ahead of the response (progress, the peer's own requests),
//     so that they reach the Conn before the response does, in order.
//   - an error, as Write's: ctx.Err() when ctx ended (the request may have
//     reached the peer), or a *ResponseLostError or *BadResponseError for
//     this id, which fails the call and leaves the stream running.
//
// A Call whose ctx ends returns promptly; so does one in progress when
// Close is called.
type Caller interface {
	frames
	Call(ctx context.Context, id ID, method string, frame []byte) ([]byte, error)
}

// A ReadNotifier is a Stream that can say when Read first has something to
// return. Over Streamable HTTP most sessions never read at all — every
// answer comes back through Call — so a Conn over a ReadNotifier starts
// its read loop only when the stream calls the function it registered: no
// goroutine to start at connect and to wait for at Close, for a stream
// that may never carry an unsolicited message.
//
// NotifyRead registers f. The stream calls it (at most once matters: the
// Conn ignores later calls) before Read first returns a frame or an error
// other than the one after Close — a message the peer sent unasked, a
// failed call, the stream's end — and at once if that moment has passed.
// A wrapper that passes Read on passes NotifyRead on too, or calls f at
// once.
type ReadNotifier interface {
	frames
	NotifyRead(f func())
}

// NotifyRead registers f with s if s is a ReadNotifier and calls f at once
// if not: what a Conn does, and what a wrapping Stream's own NotifyRead
// does with the stream it wraps.
func NotifyRead(s frames, f func()) {
	if rn, ok := s.(ReadNotifier); ok {
		rn.NotifyRead(f)
	} else {
		f()
	}
}
