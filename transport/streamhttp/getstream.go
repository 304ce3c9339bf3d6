package streamhttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The GET stream of the handshake era: opened for the server's own
// messages, resumed with Last-Event-ID, reopened with a backoff while it
// fails.

// get opens an SSE stream with GET, resuming after lastEventID if set.
func (h *streamable) get(ctx context.Context, lastEventID string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.b.endpoint.String(), nil)
	if err != nil {
		return nil, err
	}
	h.setCommonHeaders(req, h.SessionID())
	req.Header.Set("Accept", "text/event-stream")
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := h.b.client.Do(req)
	if err != nil {
		return nil, urlErrorCause(err)
	}
	if resp.StatusCode != http.StatusOK || mediaType(resp) != "text/event-stream" {
		body := bodyHead(resp.Body, 4<<10)
		return nil, &HTTPError{Method: http.MethodGet, URL: redactURL(h.b.endpoint), StatusCode: resp.StatusCode, Body: redactedExcerpt(h.b, body)}
	}
	return resp.Body, nil
}

// listen keeps the optional GET stream open for messages the server sends
// on its own. 405 means the server has none. When the stream ends it is
// reopened after the server's retry delay (or a growing backoff); it stops
// on a client error status or Close. Its failures never touch the POSTs.
func (h *streamable) listen(ready chan struct{}) {
	defer h.wg.Done()
	var last string
	retry := time.Duration(0) // the server's retry:, once it gave one
	failures := 0             // reconnects in a row that got nowhere
	for {
		body, err := h.get(h.ctx, last)
		if ready != nil {
			close(ready) // the first answer is in
			ready = nil
		}
		if err != nil {
			if h.ctx.Err() != nil {
				return
			}
			var he *HTTPError
			if errors.As(err, &he) && he.StatusCode >= 400 && he.StatusCode < 500 {
				h.logDebug("streamhttp: no GET stream", "status", he.StatusCode)
				return
			}
			h.logDebug("streamhttp: GET stream failed", "error", err)
			failures++
		} else {
			got := time.Now()
			h.consume(body, jsonrpc.ID{}, &last, &retry, nil, nil)
			body.Close()
			if time.Since(got) < healthyStream {
				failures++
			} else {
				failures = 1
			}
		}
		select {
		case <-time.After(listenBackoff(retry, failures)):
		case <-h.ctx.Done():
			return
		}
	}
}

// healthyStream is how long a GET stream must have lasted for its end to
// count as normal rather than as a failure that calls for backing off.
const healthyStream = 10 * time.Second

// listenBackoff is the wait before reopening the GET stream: the server's
// retry: (at least minRetry) the first time, doubling with every failure
// in a row after that, up to maxListenRetry.
func listenBackoff(retry time.Duration, failures int) time.Duration {
	wait := defaultRetry
	if retry > 0 {
		wait = max(retry, minRetry)
	}
	for i := 1; i < failures && wait < maxListenRetry; i++ {
		wait *= 2
	}
	return min(wait, maxListenRetry)
}
