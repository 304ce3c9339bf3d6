package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/transport"
)

// Call sends any request and decodes its result into result (nil discards
// it; a *json.RawMessage keeps the exact bytes). It is the escape hatch for
// methods this package has no wrapper for; the request gets the same
// timeout, progress and cancellation handling as the wrapped ones.
func (s *Session) Call(ctx context.Context, method string, params, result any) error {
	return s.call(ctx, method, params, result)
}

// call is the one path every request takes: in the stateless era through
// statelessCall (per-request metadata, input-required rounds), in the
// handshake era straight to callOnce, replaying a call whose HTTP session
// expired after starting a new one.
func (s *Session) call(ctx context.Context, method string, params, result any) error {
	s.stateMu.Lock()
	gen, era := s.sessionGen, s.era
	s.stateMu.Unlock()
	if era == EraStateless {
		return s.statelessCall(ctx, method, params, result)
	}
	err := s.callOnce(ctx, method, params, result)
	if errors.Is(err, transport.ErrSessionExpired) && method != "initialize" {
		// The HTTP session expired: start a new one and replay the call,
		// once. The request never reached a live session, so replaying
		// it does not run it twice.
		if rerr := s.reinitialize(ctx, gen); rerr != nil {
			return fmt.Errorf("calling %s: %w; starting a new session: %w", method, err, rerr)
		}
		err = s.callOnce(ctx, method, params, result)
	}
	return err
}

// callOnce sends one request. It applies the default timeout, attaches a
// progress token when ctx asks for progress, and leaves cancellation to the
// conn's OnAbandon hook.
func (s *Session) callOnce(ctx context.Context, method string, params, result any) error {
	onProgress, _ := ctx.Value(progressKey{}).(func(Progress))
	timeout := s.opts.requestTimeout()
	if ctx.Value(noTimeoutKey{}) != nil {
		timeout = 0
	}
	if onProgress == nil {
		return s.callTimeout(ctx, timeout, method, params, result)
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var watch *progressWatch
	if timeout > 0 {
		watch = &progressWatch{start: time.Now(), timeout: timeout, cap: s.opts.maxRequestTimeout()}
		watch.expired = &TimeoutError{Method: method}
		watch.timer = time.AfterFunc(timeout, func() { watch.expire(cancel) })
		defer watch.timer.Stop()
	}
	if onProgress != nil {
		if watch == nil {
			watch = &progressWatch{}
		}
		watch.fn = onProgress
		watch.wake = make(chan struct{}, 1)
		watch.reset = s.opts.ResetTimeoutOnProgress && timeout > 0
		token := strconv.FormatInt(s.progressSeq.Add(1), 10)
		var err error
		if params, err = withProgressToken(params, token); err != nil {
			return fmt.Errorf("calling %s: %w", method, err)
		}
		s.progressMu.Lock()
		s.progress[token] = watch
		s.progressMu.Unlock()
		defer func() {
			s.progressMu.Lock()
			delete(s.progress, token)
			s.progressMu.Unlock()
		}()
	}
	var err error
	if watch.fn != nil {
		err = watch.callDelivering(func() error { return s.conn.Call(ctx, method, params, result) })
	} else {
		err = s.conn.Call(ctx, method, params, result)
	}
	if err != nil && watch.expired != nil && errors.Is(context.Cause(ctx), watch.expired) {
		return watch.expired
	}
	return err
}

// callTimeout is callOnce without progress: a plain context deadline
// does, for a fraction of the cost of the timer a progress watch needs.
func (s *Session) callTimeout(ctx context.Context, timeout time.Duration, method string, params, result any) error {
	if timeout == 0 {
		return s.conn.Call(ctx, method, params, result)
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= timeout {
		return s.conn.Call(ctx, method, params, result) // the caller's deadline comes first
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	err := s.conn.Call(tctx, method, params, result)
	cancel()
	if err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
		return &TimeoutError{Method: method, After: timeout}
	}
	return err
}

// TimeoutError is returned when a request got no answer within the
// session's RequestTimeout. It matches context.DeadlineExceeded with
// errors.Is. The server was sent notifications/cancelled.
type TimeoutError struct {
	Method string
	After  time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("mcpclient: %s got no response within %v", e.Method, e.After.Round(time.Millisecond))
}

// Is makes errors.Is(err, context.DeadlineExceeded) true.
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// progressWatch follows one request: its progress callback and its timeout,
// which progress may push back.
//
// Progress updates are recorded on the conn's read loop (see
// Session.intercept) and handed to the callback on the caller's own
// goroutine. Since the read loop records an update before it reads the
// frames after it, every update the server sent before its response has
// reached the callback when the call returns, and a callback that calls
// the session cannot deadlock the read loop.
type progressWatch struct {
	fn      func(Progress)
	reset   bool
	start   time.Time
	timeout time.Duration
	cap     time.Duration
	expired *TimeoutError

	mu      sync.Mutex
	timer   *time.Timer
	pending []Progress
	wake    chan struct{} // 1-buffered
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
	batch := w.pending
	w.pending = nil
	w.mu.Unlock()
	for _, p := range batch {
		w.fn(p)
	}
}

func (w *progressWatch) expire(cancel context.CancelCauseFunc) {
	w.mu.Lock()
	w.expired.After = time.Since(w.start)
	w.mu.Unlock()
	cancel(w.expired)
}

// progressed records an update and, if asked to, restarts the timeout
// without passing the hard cap. It runs on the read loop and never blocks.
func (w *progressWatch) progressed(p Progress) {
	w.mu.Lock()
	if w.reset {
		left := w.cap - time.Since(w.start)
		if left > w.timeout {
			left = w.timeout
		}
		if left > 0 && w.timer.Stop() {
			w.timer.Reset(left)
		}
	}
	if w.fn != nil {
		w.pending = append(w.pending, p)
	}
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

type progressKey struct{}

// WithProgress returns a context whose requests ask the server for progress
// updates (a fresh progress token each) and hand them to fn, in order, on
// the goroutine that made the request; every update sent before the
// response has been handed over by the time the call returns.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// withProgressToken encodes params and adds _meta.progressToken.
func withProgressToken(params any, token string) (json.RawMessage, error) {
	var raw []byte
	switch p := params.(type) {
	case nil:
		raw = []byte("{}")
	case json.RawMessage:
		raw = p
	default:
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return nil, err
		}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("params must be a JSON object to carry a progress token: %w", err)
	}
	meta := map[string]json.RawMessage{}
	if m, ok := obj["_meta"]; ok && !bytes.Equal(m, []byte("null")) {
		if err := json.Unmarshal(m, &meta); err != nil {
			return nil, fmt.Errorf("params _meta: %w", err)
		}
	}
	meta["progressToken"] = json.RawMessage(token)
	var err error
	if obj["_meta"], err = marshalPlain(meta); err != nil {
		return nil, err
	}
	return marshalPlain(obj)
}

// marshalPlain marshals v without HTML escaping: a json.RawMessage inside
// (an opaque requestState, a schema) must go out byte for byte, and
// json.Marshal would rewrite <, > and & in its strings.
func marshalPlain(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// noTimeoutKey marks a context whose requests are exempt from the default
// timeout: a subscriptions/listen stream lives as long as the session.
type noTimeoutKey struct{}
