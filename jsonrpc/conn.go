package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Handler answers one request from the peer. Its result is marshalled to
// JSON (a json.RawMessage is sent as is); an error that is an *Error is sent
// with its code, any other error as an internal error (-32603) carrying its
// text. ctx ends when the peer cancels the request (see Conn.Cancel) or the
// connection stops.
type Handler func(ctx context.Context, req *Request) (result any, err error)

// NotificationHandler receives the peer's notifications, one at a time, in
// the order they arrived. ctx ends when the connection stops.
type NotificationHandler func(ctx context.Context, req *Request)

// Options configures a Conn. A nil *Options is valid and means: answer every
// request with method-not-found, drop notifications, log nothing.
type Options struct {
	// Handler answers the peer's requests; each runs in its own goroutine so
	// a slow one never stalls responses to our calls. Nil answers -32601.
	Handler Handler

	// Notify receives the peer's notifications in arrival order on a single
	// goroutine. Nil drops them.
	Notify NotificationHandler

	// Intercept, if set, sees each notification on the read loop before it
	// is queued for Notify, and consumes it by returning true. It runs before
	// any later frame is read, so what it records is in place before a
	// response that followed the notification is delivered (MCP routes
	// progress this way). It must be quick and must never block or call the
	// Conn.
	Intercept func(n *Request) bool

	// OnAbandon is called when a Call returns because its context ended
	// before the response arrived, with the id and method of the abandoned
	// request. A protocol layer uses it to tell the peer (MCP sends
	// notifications/cancelled). It runs on the caller's goroutine and must
	// not block.
	OnAbandon func(id ID, method string)

	// Logger receives reports of frames that were dropped (not JSON-RPC,
	// unknown or duplicate response ids) and of handler panics. Nil is silent.
	Logger *slog.Logger

	// MaxQueuedNotifications bounds notifications waiting for Notify; past
	// it new ones are dropped and reported. Zero means 10000.
	MaxQueuedNotifications int
}

// Conn is a JSON-RPC 2.0 connection over a Stream. It correlates our calls
// with their responses through a map of pending ids, dispatches the peer's
// requests and notifications, and fails every pending call at once when the
// stream ends.
//
// All methods are safe for concurrent use.
type Conn struct {
	stream Stream
	opts   Options
	log    *slog.Logger

	lastID atomic.Int64

	mu       sync.Mutex
	pending  map[int64]chan *Message   // our calls awaiting a response
	inflight map[ID]context.CancelFunc // the peer's requests being handled
	err      error                     // why the conn stopped; nil while it runs
	closing  bool

	done      chan struct{} // closed when the conn stops
	readDone  chan struct{} // closed when the read loop has returned
	baseCtx   context.Context
	cancelAll context.CancelFunc
	notes     notificationQueue

	closeOnce sync.Once
	closeErr  error
}

// NewConn starts a connection over s and its read loop. The Conn owns s
// from now on: Close closes it.
func NewConn(s Stream, opts *Options) *Conn {
	c := &Conn{
		stream:   s,
		pending:  make(map[int64]chan *Message),
		inflight: make(map[ID]context.CancelFunc),
		done:     make(chan struct{}),
		readDone: make(chan struct{}),
	}
	if opts != nil {
		c.opts = *opts
	}
	c.log = c.opts.Logger
	if c.log == nil {
		c.log = slog.New(discardHandler{})
	}
	c.baseCtx, c.cancelAll = context.WithCancel(context.Background())
	c.notes.init(c.opts.MaxQueuedNotifications)
	go c.readLoop()
	if c.opts.Notify != nil {
		go c.notes.run(c.baseCtx, c.opts.Notify)
	}
	return c
}

// Call sends a request and waits for its response, decoding the result into
// result (a pointer, or nil to discard it; a *json.RawMessage receives the
// exact bytes). It returns an *Error (wrapped) when the peer answered with
// one, ctx's error when ctx ended first (and then calls Options.OnAbandon),
// and an error wrapping ErrClosed or ErrDisconnected when the connection
// stopped.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	raw, err := c.call(ctx, method, params)
	if err != nil {
		return err
	}
	switch r := result.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*r = raw
		return nil
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("decoding %s result: %w", method, err)
	}
	return nil
}

func (c *Conn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("calling %s: %w", method, err)
	}
	n := c.lastID.Add(1)
	id := Int64ID(n)
	ch := make(chan *Message, 1)

	// Register before writing: the response may arrive before Write returns.
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, fmt.Errorf("calling %s: %w", method, err)
	}
	c.pending[n] = ch
	c.mu.Unlock()
	defer c.forget(n)

	buf := getBuffer()
	frame, err := appendRequestParams(*buf, id, method, params)
	if err == nil {
		err = c.stream.Write(ctx, frame)
	}
	*buf = frame
	putBuffer(buf)
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", method, c.writeError(err))
	}

	select {
	case m := <-ch:
		return response(method, m)
	case <-ctx.Done():
		if c.opts.OnAbandon != nil {
			c.opts.OnAbandon(id, method)
		}
		return nil, fmt.Errorf("calling %s: %w", method, ctx.Err())
	case <-c.done:
		// A response delivered just before the stop still counts.
		select {
		case m := <-ch:
			return response(method, m)
		default:
		}
		return nil, fmt.Errorf("calling %s: %w", method, c.Err())
	}
}

func response(method string, m *Message) (json.RawMessage, error) {
	if m.Error != nil {
		return nil, fmt.Errorf("calling %s: %w", method, m.Error)
	}
	return m.Result, nil
}

// writeError prefers the reason the conn stopped over the raw write error:
// "server exited with status 1: …" says more than "broken pipe".
func (c *Conn) writeError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	select {
	case <-c.done:
		return c.Err()
	default:
		return err
	}
}

func (c *Conn) forget(n int64) {
	c.mu.Lock()
	delete(c.pending, n)
	c.mu.Unlock()
}

// Notify sends a notification. It returns once the frame is handed to the
// stream.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if err := c.Err(); err != nil {
		return fmt.Errorf("notifying %s: %w", method, err)
	}
	buf := getBuffer()
	frame, err := appendRequestParams(*buf, ID{}, method, params)
	if err == nil {
		err = c.stream.Write(ctx, frame)
	}
	*buf = frame
	putBuffer(buf)
	if err != nil {
		return fmt.Errorf("notifying %s: %w", method, c.writeError(err))
	}
	return nil
}

// Cancel ends the context of the peer's request with the given id, if it is
// still being handled, and reports whether it was. A cancelled request is
// not answered: the peer that cancelled it expects no response.
func (c *Conn) Cancel(id ID) bool {
	c.mu.Lock()
	cancel := c.inflight[id]
	delete(c.inflight, id)
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return cancel != nil
}

// Done is closed when the connection has stopped, by Close or because the
// stream ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection stopped (wrapping ErrClosed or
// ErrDisconnected), or nil while it runs.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close stops the connection: pending calls fail with ErrClosed, handlers'
// contexts end, and the stream is closed. It waits for the read loop to
// return (the Stream contract makes Close unblock Read), not for handlers.
// Close is idempotent and returns the stream's Close result every time.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		c.stop(ErrClosed)
		c.closeErr = c.stream.Close()
		<-c.readDone
	})
	return c.closeErr
}

// stop records why the conn ended and wakes everyone waiting on it. Only the
// first call has an effect.
func (c *Conn) stop(cause error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	switch {
	case c.closing || errors.Is(cause, ErrClosed):
		c.err = ErrClosed
	case errors.Is(cause, io.EOF):
		c.err = fmt.Errorf("%w: peer closed the stream", ErrDisconnected)
	default:
		c.err = fmt.Errorf("%w: %w", ErrDisconnected, cause)
	}
	c.mu.Unlock()
	close(c.done)
	c.cancelAll()
	c.notes.stop()
}

// readLoop is the only reader of the stream.
func (c *Conn) readLoop() {
	defer close(c.readDone)
	for {
		frame, err := c.stream.Read()
		if err != nil {
			c.stop(err)
			return
		}
		c.handleFrame(frame)
	}
}

func (c *Conn) handleFrame(frame []byte) {
	i := skipSpace(frame, 0)
	if i < len(frame) && frame[i] == '[' {
		c.handleBatch(frame)
		return
	}
	m, err := Decode(frame)
	if err != nil {
		c.log.Warn("jsonrpc: dropping frame", "error", err, "frame", preview(frame))
		return
	}
	switch {
	case m.IsResponse():
		c.deliver(m)
	case m.IsNotification():
		c.queueNotification(m)
	default:
		req := &Request{ID: m.ID, Method: m.Method, Params: m.Params}
		ctx := c.startRequest(req)
		go func() {
			resp := c.handle(ctx, req)
			if !c.finishRequest(req.ID) {
				return // cancelled by the peer: it expects no response
			}
			if err := c.stream.Write(c.baseCtx, resp); err != nil {
				c.log.Debug("jsonrpc: could not send response", "id", req.ID, "error", err)
			}
		}()
	}
}

func (c *Conn) queueNotification(m *Message) {
	n := &Request{Method: m.Method, Params: m.Params}
	if c.opts.Intercept != nil && c.opts.Intercept(n) {
		return
	}
	if c.opts.Notify != nil {
		c.notes.push(n, c.log)
	}
}

// deliver hands a response to the call waiting for it. The entry is removed
// here, so a second response with the same id is reported as unknown.
func (c *Conn) deliver(m *Message) {
	n, ok := m.ID.Int64()
	var ch chan *Message
	c.mu.Lock()
	if ok {
		ch = c.pending[n]
		delete(c.pending, n)
	}
	c.mu.Unlock()
	if ch == nil {
		c.log.Warn("jsonrpc: dropping response for unknown or already answered id", "id", m.ID)
		return
	}
	ch <- m // 1-buffered and sent to at most once: never blocks
}

// startRequest registers a peer request so Cancel can reach it. It runs on
// the read loop, before later notifications (such as a cancellation) are
// queued.
func (c *Conn) startRequest(req *Request) context.Context {
	ctx, cancel := context.WithCancel(c.baseCtx)
	c.mu.Lock()
	if _, dup := c.inflight[req.ID]; dup {
		c.log.Warn("jsonrpc: peer reused the id of a request still in flight", "id", req.ID)
	}
	c.inflight[req.ID] = cancel
	c.mu.Unlock()
	return ctx
}

// finishRequest forgets a handled request and reports whether it should be
// answered (false when Cancel got to it first).
func (c *Conn) finishRequest(id ID) bool {
	c.mu.Lock()
	cancel := c.inflight[id]
	delete(c.inflight, id)
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return cancel != nil
}

// handle runs the handler for one request and returns the encoded response.
// A panic becomes an internal error; the connection lives on.
func (c *Conn) handle(ctx context.Context, req *Request) (frame []byte) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("jsonrpc: handler panicked", "method", req.Method, "panic", p, "stack", string(debug.Stack()))
			frame = AppendError(nil, req.ID, NewError(CodeInternalError, "internal error while handling %s", req.Method))
		}
	}()
	if c.opts.Handler == nil {
		return AppendError(nil, req.ID, NewError(CodeMethodNotFound, "method not found: %s", req.Method))
	}
	result, err := c.opts.Handler(ctx, req)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: CodeInternalError, Message: err.Error()}
		}
		return AppendError(nil, req.ID, e)
	}
	raw, err := marshalParams(result)
	if err != nil {
		return AppendError(nil, req.ID, NewError(CodeInternalError, "encoding result of %s: %v", req.Method, err))
	}
	return AppendResult(nil, req.ID, raw)
}

func preview(b []byte) string {
	const n = 120
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// discardHandler is a slog.Handler that drops everything (slog.DiscardHandler
// needs Go 1.24).
type discardHandler struct{}

func (discardHandler) Enabled(context.Context, slog.Level) bool  { return false }
func (discardHandler) Handle(context.Context, slog.Record) error { return nil }
func (d discardHandler) WithAttrs([]slog.Attr) slog.Handler      { return d }
func (d discardHandler) WithGroup(string) slog.Handler           { return d }
