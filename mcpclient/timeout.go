package mcpclient

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// How a request that carries a progress token times out. Progress
// restarts the timeout, so the deadline moves with every update. A timer
// per request, reset on each update, and a context.WithCancelCause per
// exchange for it to cancel, made the default tools/call (which carries a
// token, so that a long job can keep itself alive) cost 20 allocations
// and 1,408 B in BenchmarkCallToolStdio, and about 15.8 µs of CPU per
// call with 256 in flight (BenchmarkEra/inflight256), where a call with
// no timeout at all took 12.8 µs. This way it costs 17 allocations,
// 1,216 B and 14.7 µs:
//
//   - an exchange writes its deadline into its watch, and progress moves
//     it there: no timer is touched;
//   - one timer per session, the sweep, is due at the earliest deadline
//     of the exchanges in flight; when it fires it ends those past their
//     deadline and sets itself for the next one. A new exchange touches
//     it only when its deadline comes first, which is rare: timeouts are
//     per method, and progress only pushes deadlines back;
//   - the exchange's context, when the caller's can never end by itself
//     (it has no Done channel), is an exchangeCtx: one small value and a
//     channel, which the sweep closes. A caller's context that can end
//     gets a context.WithCancelCause, which the sweep cancels.

// errExpired is the cause the sweep gives an exchange's context.
var errExpired = errors.New("mcpclient: request timed out")

// within runs one exchange under a timeout that progress restarts, never
// past cap from the start of the call's first exchange: a call of the
// stateless era may take several (input rounds, a lost response sent
// again), and a server that answers each with input_required must not
// get the cap afresh each time.
func (s *Session) within(ctx context.Context, w *progressWatch, timeout, cap time.Duration, method string, call func(context.Context) error) error {
	ctx, deadline := w.begin(ctx, timeout, cap)
	if ctx == nil {
		return &TimeoutError{Method: method, After: cap, Capped: true, progress: true}
	}
	s.armSweep(deadline)
	err := call(ctx)
	expired, capped := w.end()
	switch {
	case err == nil || !expired:
		return err
	case capped:
		return &TimeoutError{Method: method, After: cap, Capped: true, progress: true}
	}
	return &TimeoutError{Method: method, After: timeout, progress: true}
}

// begin starts an exchange of w's call: it sets its deadline and returns
// the context the exchange runs under, or nil if the cap has passed.
func (w *progressWatch) begin(ctx context.Context, timeout, cap time.Duration) (context.Context, time.Time) {
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.start.IsZero() { // the watch is new for each call (see watchProgress)
		w.start = now
	}
	left := cap - now.Sub(w.start)
	if left <= 0 {
		return nil, time.Time{}
	}
	w.timeout, w.cap, w.capped = timeout, cap, left <= timeout
	w.deadline, w.expired = now.Add(min(timeout, left)), false
	if ctx.Done() == nil {
		w.exchange = &exchangeCtx{Context: ctx, done: make(chan struct{})}
		return w.exchange, w.deadline
	}
	ctx, w.cancel = context.WithCancelCause(ctx)
	return ctx, w.deadline
}

// end ends the exchange in flight, reporting whether the sweep expired it
// and whether it was the cap that did.
func (w *progressWatch) end() (expired, capped bool) {
	w.mu.Lock()
	expired, capped, cancel := w.expired, w.capped, w.cancel
	w.deadline, w.exchange, w.cancel = time.Time{}, nil, nil
	w.mu.Unlock()
	if cancel != nil {
		cancel(nil)
	}
	return expired, capped
}

// expireBy ends the exchange in flight if its deadline is not after now.
// It returns the deadline still to come, or zero for none.
func (w *progressWatch) expireBy(now time.Time) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.deadline.IsZero() || w.expired:
		return time.Time{}
	case now.Before(w.deadline):
		return w.deadline
	}
	w.expired = true
	if w.cancel != nil {
		w.cancel(errExpired)
	} else {
		w.exchange.expire()
	}
	return time.Time{}
}

// armSweep makes sure the sweep fires no later than deadline.
func (s *Session) armSweep(deadline time.Time) {
	s.progressMu.Lock()
	defer s.progressMu.Unlock()
	switch {
	case s.sweepOff:
		return // a closed session's calls fail at once
	case !s.sweepAt.IsZero() && !deadline.Before(s.sweepAt):
		return // it fires first, and looks again then
	}
	s.sweepAt = deadline
	if s.sweep == nil {
		s.sweep = time.AfterFunc(time.Until(deadline), s.sweepExpired)
		return
	}
	s.sweep.Reset(time.Until(deadline))
}

// sweepExpired ends the exchanges whose deadline has passed and sets the
// sweep for the earliest of the others.
func (s *Session) sweepExpired() {
	now := time.Now()
	s.progressMu.Lock()
	defer s.progressMu.Unlock()
	var next time.Time
	for _, w := range s.progress {
		if d := w.expireBy(now); !d.IsZero() && (next.IsZero() || d.Before(next)) {
			next = d
		}
	}
	s.sweepAt = next
	if !next.IsZero() && !s.sweepOff {
		s.sweep.Reset(next.Sub(now))
	}
}

// stopSweep stops the sweep of a closed session for good: its calls have
// all failed, and the timer would keep the session from the GC until it
// fires. A call made after Close, or a sweep already running, must not
// set it again.
func (s *Session) stopSweep() {
	s.progressMu.Lock()
	defer s.progressMu.Unlock()
	s.sweepOff = true
	if s.sweep != nil {
		s.sweep.Stop()
	}
	s.sweepAt = time.Time{}
}

// exchangeCtx is the context of one exchange whose caller's context has no
// Done channel: the caller's, with a Done channel of its own that the
// sweep closes when the exchange's deadline passes.
//
// It is made anew for each exchange, not kept in the pooled request,
// though that would save its two allocations: what it is passed to may
// use it after the exchange. net/http may, over Streamable HTTP; and on
// stdio, a LineStream write that waits on a full pipe watches it with
// context.AfterFunc, which for a context of a type of its own starts a
// goroutine that calls Done, and Err if it fires, when it gets to run,
// after the write may have returned.
type exchangeCtx struct {
	context.Context // the caller's
	done            chan struct{}
	expired         atomic.Bool
}

func (c *exchangeCtx) Done() <-chan struct{} { return c.done }

func (c *exchangeCtx) Err() error {
	if c.expired.Load() {
		return context.DeadlineExceeded
	}
	return c.Context.Err()
}

// expire ends the exchange: Err reports it before Done is closed.
func (c *exchangeCtx) expire() {
	c.expired.Store(true)
	close(c.done)
}
