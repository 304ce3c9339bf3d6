package streamhttp

import (
	"io"
	"net/http"
	"time"
)

// A body the transport is done with is read to its end, within bounds of
// size and time, before it is closed: net/http then hands its connection
// to the next request instead of dialing another.

// drainLimit is how much of a body is read so that its connection can be
// reused; a longer body is left and the connection closed.
const drainLimit = 64 << 10

// drainAfterAnswer bounds reading an SSE answer to its end after the
// response came, which lets net/http reuse the connection.
const drainAfterAnswer = time.Second

// closeShort closes a body it does not need, reading it first only if it
// is short and already sized (so the connection can be reused without
// waiting on an open-ended body).
func closeShort(resp *http.Response) {
	if resp.ContentLength >= 0 && resp.ContentLength <= 4<<10 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	}
	resp.Body.Close()
}

// drain reads a little of body, so the connection can be reused, and
// closes it.
func drain(body io.ReadCloser) {
	io.Copy(io.Discard, io.LimitReader(body, 64<<10))
	body.Close()
}

// defaultDrainWait is how long a call waits for the end of its event
// stream after the response: a server that ends the stream with the
// response is done within it, and the connection is back in the pool
// before the next request (without the wait, a next request at once dials
// another). A server that keeps the stream open costs the call no more.
const defaultDrainWait = 500 * time.Microsecond

// drainLater reads the rest of an event stream after its response, in
// the background and within drainAfterAnswer, so that its connection can
// serve another request; then it ends the exchange. It waits up to wait
// for that to be done.
func (h *streamable) drainLater(body io.ReadCloser, x exchange, wait time.Duration) {
	if !h.track() {
		body.Close()
		x.end()
		return
	}
	drained := make(chan struct{})
	go func() {
		defer h.wg.Done()
		t := time.AfterFunc(drainAfterAnswer, func() { body.Close() })
		io.Copy(io.Discard, io.LimitReader(body, drainLimit))
		t.Stop()
		body.Close()
		x.end()
		close(drained)
	}()
	t := time.NewTimer(wait)
	select {
	case <-drained:
	case <-t.C:
	}
	t.Stop()
}
