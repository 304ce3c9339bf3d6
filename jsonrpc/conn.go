package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"

	"github.com/plainmcp/plainmcp/internal/jsonscan"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// Conn is a JSON-RPC 2.0 connection over a Stream. It correlates our calls
// with their responses through a map of pending ids, dispatches the peer's
// requests and notifications, and fails every pending call at once when the
// stream ends.
//
// All methods are safe for concurrent use.
type Conn struct {
	stream Stream
	caller rpcwire.Caller // stream, if it can carry a request to its answer
	opts   Options
	log    logging.Logger

	lastID atomic.Int64

	mu       sync.Mutex
	pending  map[int64]chan reply      // our calls awaiting a response
	inflight map[ID]context.CancelFunc // the peer's requests being handled (made by the first)
	err      error                     // why the conn stopped; nil while it runs
	closing  bool

	done      chan struct{} // closed when the conn stops
	readDone  chan struct{} // made when the read loop starts, closed when it has returned
	readStart sync.Once     // starts the read loop, or (in Close) rules it out
	notes     notificationQueue
	handlers  chan struct{} // a token per peer request being handled

	// baseCtx is the context of the peer's requests and notifications,
	// which come through the read loop alone: startReading makes it (a
	// Conn whose answers all come back through a Caller never needs one),
	// and stop ends it. cancelAll is set under mu.
	baseCtx   context.Context
	cancelAll context.CancelFunc

	// replies recycles the 1-buffered channels calls wait on: without it
	// mcpclient's BenchmarkCallToolStdio makes 19 allocations and 1,352 B
	// per echo call, not 17 and 1,216 (it saves a channel and the
	// buffer behind it per call). It is the
	// Conn's own, not the package's: a channel made inside a
	// testing/synctest bubble may not be used outside it, and a Conn
	// lives in one bubble while a package-wide pool would hand its
	// channels to every other.
	replies sync.Pool

	closeOnce sync.Once
	closeErr  error
}

// NewConn starts a connection over s and its read loop (over a
// ReadNotifier, when the stream first has something to read). The Conn
// owns s from now on: Close closes it.
func NewConn(s Stream, opts *Options) *Conn {
	c := &Conn{
		stream:  s,
		pending: make(map[int64]chan reply),
		replies: sync.Pool{New: func() any { return make(chan reply, 1) }},
		done:    make(chan struct{}),
	}
	c.caller, _ = s.(rpcwire.Caller)
	if opts != nil {
		c.opts = *opts
	}
	c.log = logging.OrDiscard(c.opts.Logger)
	c.notes.init(c.opts.MaxQueuedNotifications, c.opts.MaxQueuedNotificationBytes, c.opts.OnNotification != nil)
	rpcwire.NotifyRead(s, c.startReading)
	return c
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
// contexts end, and the stream is closed. It waits for the read loop, if
// one started, to return (the Stream contract makes Close unblock Read),
// then, for at most a moment (notifyDrainWait), for the notifications
// that came before to be delivered; what is still undelivered then is
// dropped. So after Close returns, OnNotification is called no more, and
// is still running only if it outlasted that moment (or called Close
// itself, which then waits that moment and no longer). Close does not
// wait for the handlers of the peer's requests.
// Close is idempotent and returns the stream's Close result every time.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		c.stop(ErrClosed)
		c.closeErr = c.stream.Close()
		started := true
		c.readStart.Do(func() { started = false }) // none started, and none will
		if started {
			<-c.readDone
			if !c.notes.finish(notifyDrainWait) {
				c.log.Debug("jsonrpc: Close dropped the notifications it could not deliver in time", "waited", notifyDrainWait)
			}
		}
	})
	return c.closeErr
}

// notifyDrainWait bounds how long Close waits for notifications to be
// delivered.
const notifyDrainWait = 500 * time.Millisecond

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
	cancelAll := c.cancelAll
	c.mu.Unlock()
	close(c.done)
	if cancelAll != nil {
		cancelAll()
	}
	c.notes.stop()
}

// startReading starts the read loop, once, unless Close came first, and
// the goroutine that hands notifications to Options.OnNotification: they
// come through the read loop alone.
func (c *Conn) startReading() {
	c.readStart.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		c.mu.Lock()
		c.baseCtx, c.cancelAll = ctx, cancel
		stopped := c.err != nil
		c.mu.Unlock()
		if stopped {
			cancel() // stop came first: the handlers start ended
		}
		c.readDone = make(chan struct{})
		// The peer's requests come through the read loop alone too.
		c.handlers = make(chan struct{}, orDefault(c.opts.MaxPeerRequests, defaultMaxPeerRequests))
		go c.readLoop()
		if c.opts.OnNotification != nil {
			c.notes.start(c.baseCtx, c.opts.OnNotification)
		}
	})
}

// readLoop is the only reader of the stream.
func (c *Conn) readLoop() {
	defer close(c.readDone)
	for {
		frame, err := c.stream.Read()
		if err == nil {
			c.handleFrame(frame)
			continue
		}
		if id, failure, ok := callFailure(err); ok {
			c.deliver(id, reply{err: failure}) // one call fails; the stream lives on
			continue
		}
		c.stop(err)
		return
	}
}

func (c *Conn) handleFrame(frame []byte) {
	i := jsonscan.SkipSpace(frame, 0)
	if i < len(frame) && frame[i] == '[' {
		c.handleBatch(frame)
		return
	}
	m := c.decodeOrFail(frame)
	switch {
	case m == nil:
	case m.IsResponse():
		c.deliver(m.ID, reply{m: m})
	case m.IsNotification():
		c.queueNotification(m, len(frame))
	default:
		req := &Request{ID: m.ID, Method: m.Method, Params: m.Params}
		select {
		case c.handlers <- struct{}{}:
		default:
			c.refuse(req)
			return
		}
		ctx := c.startRequest(req)
		go func() {
			defer func() { <-c.handlers }()
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

// defaultMaxPeerRequests is how many of the peer's requests are handled
// at once unless Options say otherwise.
const defaultMaxPeerRequests = 256

// refuseWait bounds writing the answer to a refused request: the read loop
// writes it itself, and must not stall long on a peer that does not read.
const refuseWait = 100 * time.Millisecond

// refuse answers a request over the limit of requests in flight, from the
// read loop, without a goroutine.
func (c *Conn) refuse(req *Request) {
	c.log.Warn("jsonrpc: too many requests from the peer in flight; refusing one", "method", req.Method, "limit", cap(c.handlers))
	ctx, cancel := context.WithTimeout(c.baseCtx, refuseWait)
	defer cancel()
	if err := c.stream.Write(ctx, rpcwire.AppendError(nil, req.ID, c.tooMany())); err != nil {
		c.log.Debug("jsonrpc: could not refuse a request", "id", req.ID, "error", err)
	}
}

// tooMany is the answer to a request over the limit of requests in flight.
func (c *Conn) tooMany() *Error {
	return NewError(CodeInternalError, "too many requests in flight (at most %d); try again later", cap(c.handlers))
}

// queueNotification hands a notification to Intercept and, unless it
// consumed it, to the queue for OnNotification. size is what it keeps in
// memory while queued: its whole frame, which its params point into.
func (c *Conn) queueNotification(m *rpcwire.Message, size int) {
	n := &Request{Method: m.Method, Params: m.Params}
	if c.opts.Intercept != nil && c.opts.Intercept(n) {
		return
	}
	if c.opts.OnNotification != nil {
		c.notes.push(n, size, c.log)
	}
}

// deliver hands a response to the call waiting for it. The entry is removed
// here, so a second response with the same id is reported as unknown.
func (c *Conn) deliver(id ID, r reply) {
	n, ok := id.Int64()
	var ch chan reply
	c.mu.Lock()
	if ok {
		ch = c.pending[n]
		delete(c.pending, n)
	}
	c.mu.Unlock()
	if ch == nil {
		c.log.Warn("jsonrpc: dropping response for unknown or already answered id", "id", id)
		return
	}
	ch <- r // 1-buffered and sent to at most once: never blocks
}

func preview(b []byte) string {
	const n = 120
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
