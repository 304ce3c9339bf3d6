package mcpclient

import (
	"context"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/internal/logging"
)

type progressKey struct{}

// WithProgress returns a context whose requests ask the server for progress
// updates (a fresh progress token each) and hand them to fn, in order, on
// the goroutine that made the request; every update sent before the
// response has been handed over by the time the call returns. Updates that
// come later go to Options.OnProgress.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// progressWatch follows one call that carries a progress token: its
// callback, if the caller asked for progress, and, while an exchange is in
// flight, that exchange's deadline, which progress pushes back (the
// session's sweep ends the exchange when it passes: timeout.go).
//
// Progress updates are recorded on the conn's read loop (see
// Session.intercept) and handed to the callback on the caller's own
// goroutine. Since the read loop records an update before it reads the
// frames after it, every update the server sent before its response has
// reached the callback when the call returns, and a callback that calls
// the session cannot deadlock the read loop.
type progressWatch struct {
	fn   func(Progress) // nil: the token only keeps the call alive
	wake chan struct{}

	log logging.Logger

	mu           sync.Mutex
	pending      []Progress
	pendingBytes int // of the pending updates' messages, as bounded below
	dropped      int // updates dropped since the last delivery

	// The timeout of the exchange in flight (timeout.go), if it has one.
	deadline time.Time // zero between exchanges
	expired  bool      // the sweep ended the exchange
	exchange *exchangeCtx
	cancel   context.CancelCauseFunc // instead of exchange, when the caller's context can end
	start    time.Time               // of the call's first exchange
	timeout  time.Duration
	cap      time.Duration
	capped   bool // the deadline is the cap, not a whole timeout
}

// maxPendingProgress and maxPendingProgressBytes bound the updates
// waiting for a slow callback, by count and by the bytes of their
// messages; past either the oldest are dropped (the newest say the most),
// and the drop is reported to the logger. maxProgressMessage cuts one
// message: progress is a status line, not a payload.
const (
	maxPendingProgress      = 1024
	maxPendingProgressBytes = 256 << 10
	maxProgressMessage      = 4 << 10
	progressOverhead        = 64 // what one update costs besides its message
)

// watchProgress gives r a progress token and registers its watch; fn
// nil watches for the timeout alone.
//
// The watch lives in r, which goes back to its pool when the call is
// done: the read loop reaches it only under progressMu (see intercept),
// and unwatchProgress takes it out of reach before the call returns.
func (s *Session) watchProgress(r *request, fn func(Progress)) *progressWatch {
	w := &r.watchData
	w.fn, w.log = fn, s.log
	if fn != nil {
		w.wake = make(chan struct{}, 1)
	}
	r.progress = s.progressSeq.Add(1)
	r.watch = w
	s.progressMu.Lock()
	if s.progress == nil {
		s.progress = make(map[int64]*progressWatch) // for the first call that asks
	}
	s.progress[r.progress] = w
	s.progressMu.Unlock()
	return w
}

func (s *Session) unwatchProgress(token int64) {
	s.progressMu.Lock()
	delete(s.progress, token)
	s.progressMu.Unlock()
}

// callDelivering runs call on its own goroutine and meanwhile delivers
// progress to fn on this one.
func (w *progressWatch) callDelivering(call func() error) error {
	done := make(chan error, 1)
	go func() { done <- call() }()
	for {
		select {
		case err := <-done:
			w.deliver()
			return err
		case <-w.wake:
			w.deliver()
		}
	}
}

func (w *progressWatch) deliver() {
	w.mu.Lock()
	batch, dropped := w.pending, w.dropped
	w.pending, w.pendingBytes, w.dropped = nil, 0, 0
	w.mu.Unlock()
	if dropped > 0 {
		w.log.Warn("mcpclient: the progress callback fell behind; dropped the oldest updates", "dropped", dropped)
	}
	for _, p := range batch {
		w.fn(p)
	}
}

// keepAlive reports whether r, which the caller asked no progress of,
// carries a progress token all the same, so that the server can say it is
// alive: a tools/call under the session's default timeout, which progress
// restarts. Tool calls are where long jobs run; other requests, and
// calls whose caller set a deadline, have nothing for progress to push
// back, and go without the token's cost.
func (s *Session) keepAlive(ctx context.Context, r *request) bool {
	return r.method == methodToolsCall && s.opts.progressResets() && s.defaultTimeout(ctx, r.method) > 0
}

// progressed records an update and restarts the timeout without passing
// the hard cap. It runs on the read loop and never blocks.
func (w *progressWatch) progressed(p Progress) {
	w.mu.Lock()
	if !w.deadline.IsZero() && !w.expired {
		now := time.Now()
		if left := w.cap - now.Sub(w.start); left > 0 {
			w.capped = left <= w.timeout
			w.deadline = now.Add(min(left, w.timeout))
		}
	}
	if w.fn == nil {
		w.mu.Unlock()
		return
	}
	if len(p.Message) > maxProgressMessage {
		p.Message = strings.Map(dropInvalid, p.Message[:maxProgressMessage]) + "…"
	}
	size := len(p.Message) + progressOverhead
	for len(w.pending) > 0 && (len(w.pending) >= maxPendingProgress || w.pendingBytes+size > maxPendingProgressBytes) {
		w.pendingBytes -= len(w.pending[0].Message) + progressOverhead
		w.pending[0] = Progress{} // let its message go
		w.pending = w.pending[1:]
		w.dropped++
	}
	w.pending = append(w.pending, p)
	w.pendingBytes += size
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// dropInvalid is a strings.Map function that leaves out invalid UTF-8
// (a rune cut in two by a limit, say), which strings.Map hands on as
// utf8.RuneError.
func dropInvalid(r rune) rune {
	if r == utf8.RuneError {
		return -1
	}
	return r
}
