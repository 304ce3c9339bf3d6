package streamhttp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// This file is the direct path of a request: the calling goroutine POSTs
// it and reads its answer itself (rpcwire.Caller), so that the answer
// reaches the call with no trip through Read. Messages the server sends
// ahead of the response on the request's event stream still go to Read,
// in order; the response then follows them there.

var _ rpcwire.Caller = (*streamable)(nil)

// Call POSTs the request frame and returns the response to it: the JSON
// body, or the response event of the event stream when nothing came
// ahead of it. Otherwise the response goes to Read and Call returns nil.
// A final answer that cannot be used (an empty body, another request's
// response, a 202) fails the call with a *rpcwire.BadResponseError; an
// event stream that ends before the response and cannot be resumed with
// a *rpcwire.ResponseLostError. When ctx ends first, Call returns
// ctx.Err() at once; on the stateless wire, the stream it closes is the
// request's cancellation.
func (h *streamable) Call(ctx context.Context, id jsonrpc.ID, method string, frame []byte) ([]byte, error) {
	if err := h.usable(); err != nil {
		return nil, err
	}
	m := &outgoing{id: id, method: method, frame: frame}
	x := h.exchange(ctx)
	resp, sentSession, err := h.do(x.ctx, ctx, m)
	if err != nil {
		x.end()
		return nil, h.ended(ctx, err)
	}
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		x.end()
		return h.refused(resp, m, sentSession)
	case resp.StatusCode == http.StatusAccepted:
		closeShort(resp)
		x.end()
		return nil, h.unusable(id, "the server accepted the request (202) but answers no request that way")
	}
	switch mediaType(resp) {
	case "application/json":
		body, err := readAnswer(resp, h.b.maxMessage)
		x.end()
		if err != nil {
			if e := h.ended(ctx, nil); e != nil {
				return nil, e
			}
			return nil, h.unusable(id, fmt.Sprintf("reading the answer: %v", err))
		}
		return h.jsonAnswer(id, body, true)
	case "text/event-stream":
		if h.isProbe(method) {
			return h.followProbe(ctx, x, resp, id)
		}
		return h.followDirect(ctx, x, resp.Body, id)
	default:
		closeShort(resp)
		x.end()
		return nil, h.unusable(id, fmt.Sprintf("the answer has Content-Type %q, which is neither JSON nor an event stream", truncateHeader(resp.Header.Get("Content-Type"))))
	}
}

// exchange is the context one request's exchange runs under: the
// transport's own, which Close ends, and the caller's until the answer is
// in. Ending it later would cut short reading an event stream to its end
// after its response, which is what lets the connection serve the next
// call. A caller's context that can never end costs nothing.
type exchange struct {
	ctx    context.Context
	cancel context.CancelFunc // nil when ctx is the transport's own
	stop   func() bool        // stops the caller's context from ending ctx
}

func (h *streamable) exchange(ctx context.Context) exchange {
	if ctx.Done() == nil {
		return exchange{ctx: h.ctx}
	}
	xctx, cancel := context.WithCancel(h.ctx)
	return exchange{ctx: xctx, cancel: cancel, stop: context.AfterFunc(ctx, cancel)}
}

// detach makes the exchange independent of the caller's context: its
// answer is in.
func (x *exchange) detach() {
	if x.stop != nil {
		x.stop()
	}
}

// end releases the exchange.
func (x *exchange) end() {
	x.detach()
	if x.cancel != nil {
		x.cancel()
	}
}

// ended returns why the exchange ended early, the caller's context or
// Close, or else err.
func (h *streamable) ended(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err() // the frame may have reached the server: the caller tells it
	case h.ctx.Err() != nil:
		return fmt.Errorf("streamhttp: %w", jsonrpc.ErrClosed)
	}
	return err
}

// followDirect reads the event stream that answers request id, on the
// calling goroutine, as followStream does in the background: the messages
// ahead of the response go to Read, a broken stream of the handshake era
// is resumed, and the rest of the stream after the response is read in
// the background. The response is returned if nothing went to Read ahead
// of it; so is the loss of the response.
func (h *streamable) followDirect(ctx context.Context, x exchange, body io.ReadCloser, id jsonrpc.ID) ([]byte, error) {
	var d directAnswer
	var last string
	retry := defaultRetry
	for attempt := 0; ; attempt++ {
		before := last
		got, err := h.consume(body, id, &last, &retry, x.detach, &d)
		if last != before {
			attempt = 0 // the stream moved on: resumes are counted in a row without an event
		}
		if got && d.atEnd {
			body.Close() // read to its end: the connection is free
			x.end()
			return d.answer, nil
		}
		if got {
			h.drainLater(body, x, h.drainWait)
			return d.answer, nil // nil: the response went to Read, after what came ahead
		}
		body.Close()
		if e := h.ended(ctx, nil); e != nil {
			x.end()
			return nil, e
		}
		reason := "the stream ended before the response"
		if err != nil {
			reason = fmt.Sprintf("the stream broke before the response: %v", err)
		}
		if h.stateless() || last == "" || attempt >= maxResumes {
			x.end()
			return nil, h.lostDirect(id, reason, &d)
		}
		t := time.NewTimer(resumeDelay(retry))
		select {
		case <-t.C:
		case <-x.ctx.Done():
			t.Stop()
			x.end()
			return nil, h.ended(ctx, x.ctx.Err())
		}
		if body, err = h.get(x.ctx, last); err != nil {
			x.end()
			if e := h.ended(ctx, nil); e != nil {
				return nil, e
			}
			return nil, h.lostDirect(id, fmt.Sprintf("%s, and resuming it failed: %v", reason, err), &d)
		}
	}
}

// directAnswer is where consume leaves the response for the calling
// goroutine: only while nothing went to Read ahead of it.
type directAnswer struct {
	answer []byte
	ahead  bool // a message went to Read before the response
	atEnd  bool // the stream ended with the response: nothing is left to read
}

// lostDirect reports the loss of the response to id: returned to the
// caller, or through Read after the messages that went there ahead of it.
func (h *streamable) lostDirect(id jsonrpc.ID, reason string, d *directAnswer) error {
	h.logDebug("streamhttp: response lost", "id", id, "reason", reason)
	lost := &rpcwire.ResponseLostError{ID: id, Reason: reason}
	if !d.ahead {
		return lost
	}
	h.failCall(lost)
	return nil
}
