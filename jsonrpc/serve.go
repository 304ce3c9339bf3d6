package jsonrpc

import (
	"context"
	"runtime/debug"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// This file is the answering side: the peer's requests, each handled on
// its own goroutine, and their cancellation.

// CancelPeerRequest ends the context of the peer's request with the given
// id, if it is still being handled, and reports whether it was. A
// cancelled request is not answered: the peer that cancelled it expects no
// response. (Our own calls end with their context.)
func (c *Conn) CancelPeerRequest(id ID) bool { return c.finishRequest(id) }

// startRequest registers a peer request so CancelPeerRequest can reach it. It runs on
// the read loop, before later notifications (such as a cancellation) are
// queued.
func (c *Conn) startRequest(req *Request) context.Context {
	ctx, cancel := context.WithCancel(c.baseCtx)
	c.mu.Lock()
	if _, dup := c.inflight[req.ID]; dup {
		c.log.Warn("jsonrpc: peer reused the id of a request still in flight", "id", req.ID)
	}
	if c.inflight == nil {
		c.inflight = map[ID]context.CancelFunc{}
	}
	c.inflight[req.ID] = cancel
	c.mu.Unlock()
	return ctx
}

// finishRequest forgets a request, ending its context, and reports whether
// it was still in flight: a handled request is answered only if CancelPeerRequest did
// not get to it first.
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
			frame = rpcwire.AppendError(nil, req.ID, NewError(CodeInternalError, "internal error while handling %s", req.Method))
		}
	}()
	if c.opts.Handler == nil {
		return rpcwire.AppendError(nil, req.ID, NewError(CodeMethodNotFound, "method not found: %s", req.Method))
	}
	result, err := c.opts.Handler(ctx, req)
	if err != nil {
		var e *Error
		if !errtype.As(err, &e) {
			e = &Error{Code: CodeInternalError, Message: err.Error()}
		}
		return rpcwire.AppendError(nil, req.ID, e)
	}
	raw, err := marshalParams(result)
	if err != nil {
		return rpcwire.AppendError(nil, req.ID, NewError(CodeInternalError, "encoding result of %s: %v", req.Method, err))
	}
	return rpcwire.AppendResult(nil, req.ID, raw)
}
