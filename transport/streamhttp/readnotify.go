package streamhttp

import (
	"sync"
	"sync/atomic"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

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
