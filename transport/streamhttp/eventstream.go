package streamhttp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// An event stream that answers a request is read message by message: each
// goes to Read, or, on the direct path, to the caller (directAnswer). One
// that breaks before its response is resumed, in the handshake era, with
// GET and Last-Event-ID after the server's retry delay. The GET stream
// (getstream.go) is read the same way.

const (
	defaultRetry   = time.Second            // when a server gave no retry: field
	maxResumes     = 10                     // reconnects in a row, with no event between, for one request's stream
	maxListenRetry = 30 * time.Second       // the most a reconnect waits, whatever retry: says
	minRetry       = 100 * time.Millisecond // the least a reconnect waits, whatever retry: says
)

// resumeDelay is how long to wait before resuming a request's broken
// event stream: the server's retry:, within minRetry and maxListenRetry
// (a server that asks for a day would hold the call that long).
func resumeDelay(retry time.Duration) time.Duration {
	return min(max(retry, minRetry), maxListenRetry)
}

// followStream reads the SSE answer to request id and hands every message
// to Read. If the stream ends before the response, a handshake-era stream
// that gave event ids is resumed with GET and Last-Event-ID after the
// server's retry delay; otherwise the response is reported lost. Once the
// response is in, answered is set (the caller may now go) and the rest of
// the stream is read to its end, within drainAfterAnswer (end cuts it
// short), so that the connection can be reused.
func (h *streamable) followStream(ctx context.Context, body io.ReadCloser, id jsonrpc.ID, answered *atomic.Bool, end context.CancelFunc) {
	var last string
	retry := defaultRetry
	for attempt := 0; ; attempt++ {
		before := last
		got, err := h.consume(body, id, &last, &retry, func() { answered.Store(true) }, nil)
		if last != before {
			attempt = 0 // the stream moved on: see maxResumes
		}
		if got {
			t := time.AfterFunc(drainAfterAnswer, end)
			io.Copy(io.Discard, io.LimitReader(body, drainLimit))
			t.Stop()
		}
		body.Close()
		if got || ctx.Err() != nil {
			return
		}
		h.mu.Lock()
		stateless := h.proto.Stateless
		h.mu.Unlock()
		reason := "the stream ended before the response"
		if err != nil {
			reason = fmt.Sprintf("the stream broke before the response: %v", err)
		}
		if stateless || last == "" || attempt >= maxResumes {
			h.lost(id, reason)
			return
		}
		select {
		case <-time.After(resumeDelay(retry)):
		case <-ctx.Done():
			return
		}
		if body, err = h.get(ctx, last); err != nil {
			if ctx.Err() == nil {
				h.lost(id, fmt.Sprintf("%s, and resuming it failed: %v", reason, err))
			}
			return
		}
	}
}

// consume delivers the messages of one SSE stream until it ends or carries
// the response to want (the zero ID waits for nothing); onAnswer, if set,
// runs just before that response is handed on. It keeps the last event id
// and retry delay across reconnects. With d set, the response is left in
// d instead, unless a message went to Read ahead of it (d.ahead).
func (h *streamable) consume(body io.Reader, want jsonrpc.ID, last *string, retry *time.Duration, onAnswer func(), d *directAnswer) (bool, error) {
	r := getSSEReader(body, h.b.maxMessage)
	defer putSSEReader(r) // runs after the defer below: the reader is read there
	defer func() {
		if id := r.LastEventID(); id != "" {
			*last = id
		}
		if d, ok := r.Retry(); ok {
			*retry = d
		}
	}()
	for {
		data, err := nextMessage(r)
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		answer := want.IsValid() && isResponseTo(data, want)
		if answer && onAnswer != nil {
			onAnswer()
		}
		if got, stop := h.hand(r, data, answer, d); stop {
			return got, nil
		}
	}
}

// nextMessage returns the data of the stream's next message event,
// skipping events of other types and those without data.
func nextMessage(r *sseReader) ([]byte, error) {
	for {
		ev, raw, err := r.NextBytes()
		if err != nil {
			return nil, err
		}
		if ev.Type != "" && ev.Type != "message" {
			continue
		}
		if data := bytes.TrimSpace(raw); len(data) > 0 { // ours: handed on without a copy
			return data, nil
		}
		// a priming event: only an id and a retry delay
	}
}

// hand passes on one message of r: the response (answer) to d, if d is
// set and nothing went to Read ahead of it; anything else to Read. It
// reports whether the response was handed on, and whether to stop
// reading: after the response, or once the transport is closed.
func (h *streamable) hand(r *sseReader, data []byte, answer bool, d *directAnswer) (got, stop bool) {
	if answer && d != nil && !d.ahead {
		d.answer = data // the caller checks it whole
		d.atEnd = r.atEnd()
		return true, true
	}
	if !h.deliver(data) {
		return false, true
	}
	if d != nil && !answer {
		d.ahead = true
	}
	return answer, answer
}

// isResponseTo reports whether frame is the response to id, by its top
// level: whoever takes the response decodes it whole, and fails the call
// if it is malformed below.
func isResponseTo(frame []byte, id jsonrpc.ID) bool {
	got, ok := rpcwire.PeekResponseID(frame)
	return ok && got == id
}
