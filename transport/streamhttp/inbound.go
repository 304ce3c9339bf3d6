package streamhttp

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// What Read hands on, in the order it came: the server's messages, from
// whichever answer or stream they arrived on, and beside them the failure
// of one call (its response lost, or unusable). A readWaker starts the
// Conn's read loop the first time there is any.

// inbound is what Read hands on next: a message, or the failure of one
// call (a *rpcwire.ResponseLostError or *rpcwire.BadResponseError), which
// ends that call and not the stream.
type inbound struct {
	frame []byte
	fail  error
}

// inboundQueue is how many messages wait for Read before their stream
// readers wait in turn. A few cover a burst (the messages ahead of a
// response, a GET stream's notifications); more would only cost every
// idle session their room (40 bytes each).
const inboundQueue = 16

// Read returns the next message from the server, from whichever response
// or stream it arrived on.
func (h *streamable) Read() ([]byte, error) {
	select {
	case in := <-h.in:
		if in.fail != nil {
			return nil, in.fail
		}
		return in.frame, nil
	case <-h.gone:
		return nil, h.goneErr
	case <-h.ctx.Done():
		return nil, fmt.Errorf("streamhttp: reading: %w", jsonrpc.ErrClosed)
	}
}

// deliver queues a message for Read; it gives up when the transport is
// closed.
func (h *streamable) deliver(frame []byte) bool {
	h.readable.wake()
	select {
	case h.in <- inbound{frame: frame}:
		return true
	case <-h.ctx.Done():
		return false
	}
}

// lost tells the conn, beside the frames, that the response to id cannot
// arrive.
func (h *streamable) lost(id jsonrpc.ID, reason string) {
	h.logDebug("streamhttp: response lost", "id", id, "reason", reason)
	h.failCall(&rpcwire.ResponseLostError{ID: id, Reason: reason})
}

// badAnswer tells the conn, beside the frames, that the answer to id came
// and cannot be used: the call ends at once.
func (h *streamable) badAnswer(id jsonrpc.ID, reason string) {
	h.failCall(h.unusable(id, reason))
}

// unusable reports, and returns, the failure of the call id whose answer
// came and cannot be used.
func (h *streamable) unusable(id jsonrpc.ID, reason string) error {
	if h.b.log != nil {
		h.b.log.Warn("streamhttp: unusable answer", "id", id, "reason", reason)
	}
	return &rpcwire.BadResponseError{ID: id, Reason: reason}
}

func (h *streamable) failCall(err error) {
	h.readable.wake()
	select {
	case h.in <- inbound{fail: err}:
	case <-h.ctx.Done():
	}
}

// readWaker keeps the function a jsonrpc.Conn registered with NotifyRead
// and calls it the first time Read has something to return: most
// sessions over Streamable HTTP get every answer through Call and never
// need a read loop (see rpcwire.ReadNotifier).
type readWaker struct {
	fired atomic.Bool // f was called: nothing more to do

	mu  sync.Mutex
	f   func()
	due bool // wake came before NotifyRead
}

// set registers f, and calls it at once if Read already has something.
func (w *readWaker) set(f func()) {
	w.mu.Lock()
	w.f = f
	due := w.due
	w.mu.Unlock()
	if due {
		w.fire(f)
	}
}

// wake says that Read has something to return, before it is queued.
func (w *readWaker) wake() {
	if w.fired.Load() {
		return
	}
	w.mu.Lock()
	f := w.f
	w.due = f == nil
	w.mu.Unlock()
	if f != nil {
		w.fire(f)
	}
}

func (w *readWaker) fire(f func()) {
	w.fired.Store(true)
	f()
}

var _ rpcwire.ReadNotifier = (*streamable)(nil)

// NotifyRead registers f, called before Read first has a message or an
// error to return (rpcwire.ReadNotifier).
func (h *streamable) NotifyRead(f func()) { h.readable.set(f) }
