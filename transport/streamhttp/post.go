package streamhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/internal/reqinfo"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// This file is the POST of one message: the message on its way out, the
// request that carries it, and what becomes of its answer.

const (
	// maxRetryAfter is the longest Retry-After a request waits out once
	// (429 or 503: the server did not process it); a longer advice, or one
	// past the caller's deadline, is reported instead.
	maxRetryAfter = 5 * time.Second
	// maxDialFailures in a row, with no answer between them, mean the
	// server is gone.
	maxDialFailures = 3
	// postTimeout bounds a POST that carries no request.
	postTimeout = 30 * time.Second
)

// Write POSTs one message. For a request, it returns once the server has
// started answering; the answer is read in the background and handed to
// Read, with everything the server sends before it. A request's answer
// that is final — a response, an error status, an empty or unusable body —
// ends its call at once.
func (h *streamable) Write(ctx context.Context, frame []byte) error {
	m, err := rpcwire.Decode(frame)
	if err != nil {
		return fmt.Errorf("streamhttp: message to send: %w", err)
	}
	if err := h.usable(); err != nil {
		return err
	}
	if m.Method == "notifications/cancelled" && h.stateless() {
		// On the stateless wire, closing a request's stream is its
		// cancellation (the caller's context did that); the notification
		// is not sent.
		return nil
	}
	out := &outgoing{id: m.ID, method: m.Method, frame: frame, params: m.Params, decoded: true}
	if !m.IsRequest() {
		return h.postMessage(ctx, out)
	}
	return h.postRequest(ctx, out)
}

// postMessage POSTs a notification or a response: the server answers 202,
// and nothing more is waited for.
func (h *streamable) postMessage(ctx context.Context, m *outgoing) error {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	defer context.AfterFunc(h.ctx, cancel)()
	resp, sentSession, err := h.do(ctx, ctx, m)
	if err != nil && ctx.Err() == nil && !isUnreachable(errors.Unwrap(err)) {
		// A connection that broke under the POST (one the server had just
		// closed, say): a notification or a response may safely go twice,
		// and one that is lost (a cancellation) costs the server work.
		resp, sentSession, err = h.do(ctx, ctx, m)
	}
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return h.failedPost(resp, m, sentSession)
	}
	closeShort(resp)
	return nil
}

// postRequest POSTs a request and sees to its answer.
//
// The exchange runs under a context of the transport's own: the caller's
// context ends it only until the answer is in. Ending it later would cut
// short reading the answer to its end, which is what lets the connection
// serve the next call.
func (h *streamable) postRequest(ctx context.Context, m *outgoing) error {
	xctx, cancel := context.WithCancel(h.ctx)
	var answered atomic.Bool
	stopWatch := context.AfterFunc(ctx, func() {
		if !answered.Load() {
			cancel() // on the stateless wire, this is the cancellation
		}
	})
	background := false
	defer func() {
		if !background {
			stopWatch()
			cancel()
		}
	}()
	resp, sentSession, err := h.do(xctx, ctx, m)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // the frame may have reached the server: the caller tells it
		}
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return h.failedPost(resp, m, sentSession)
	}
	if resp.StatusCode == http.StatusAccepted {
		closeShort(resp)
		h.badAnswer(m.id, "the server accepted the request (202) but answers no request that way")
		return nil
	}
	switch mediaType(resp) {
	case "application/json":
		return h.readJSONAnswer(ctx, resp, m, &answered)
	case "text/event-stream":
		stopProbe, refused := h.watchProbe(resp, m, &answered, cancel)
		if refused {
			return nil
		}
		if !h.track() {
			stopProbe()
			resp.Body.Close()
			return fmt.Errorf("streamhttp: writing: %w", jsonrpc.ErrClosed)
		}
		background = true
		go func() {
			defer h.wg.Done()
			defer cancel()
			defer stopWatch()
			defer stopProbe()
			h.followStream(xctx, resp.Body, m.id, &answered, cancel)
		}()
		return nil
	default:
		closeShort(resp)
		h.badAnswer(m.id, fmt.Sprintf("the answer has Content-Type %q, which is neither JSON nor an event stream", truncateHeader(resp.Header.Get("Content-Type"))))
		return nil
	}
}

// readJSONAnswer reads the JSON body that answers m and hands it to its
// call. Once the body is in,
// answered is set: the caller's context ending no longer cancels it.
func (h *streamable) readJSONAnswer(ctx context.Context, resp *http.Response, m *outgoing, answered *atomic.Bool) error {
	body, err := readAnswer(resp, h.b.maxMessage)
	answered.Store(true)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		h.badAnswer(m.id, fmt.Sprintf("reading the answer: %v", err))
		return nil
	}
	if _, fail := h.jsonAnswer(m.id, body, false); fail != nil {
		h.failCall(fail)
	}
	return nil
}

// do sends the POST, under xctx, once more if the server said it was too
// busy (429, 503) and advised a short Retry-After that fits the caller's
// deadline: such a request was not processed. It returns the session id
// the POST carried.
func (h *streamable) do(xctx, ctx context.Context, m *outgoing) (*http.Response, string, error) {
	info := reqinfo.From(ctx, m.method)
	for attempt := 0; ; attempt++ {
		req, sentSession, err := h.newPost(xctx, info, m)
		if err != nil {
			return nil, "", err
		}
		resp, err := h.b.client.Do(req)
		if err != nil {
			err = urlErrorCause(err)
			if isUnreachable(err) && xctx.Err() == nil {
				h.dialFailed(err)
			}
			return nil, "", fmt.Errorf("streamhttp: POST %s: %w", redactURL(h.b.endpoint), err)
		}
		h.dialFailures.Store(0)
		if err := h.noteSession(resp); err != nil {
			resp.Body.Close()
			return nil, "", err
		}
		wait := retryAfterOf(resp)
		busy := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable
		if attempt > 0 || !busy || wait <= 0 || wait > maxRetryAfter || !fits(ctx, wait) {
			return resp, sentSession, nil
		}
		closeShort(resp)
		h.logDebug("streamhttp: the server is busy; trying once more", "status", resp.StatusCode, "after", wait)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-xctx.Done():
			t.Stop()
			return nil, "", xctx.Err()
		}
	}
}

// fits reports whether waiting d still leaves ctx time for the exchange.
func fits(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || time.Until(deadline) > d
}

// dialFailed counts a failure to connect at all; maxDialFailures in a row,
// with no answer between them, end the stream: the server is not there
// (the connection is refused, the host unknown), so the session is over,
// and whoever holds it reconnects rather than hearing the same error
// forever. One failure alone proves little: a busy server's listen queue
// overflows too.
func (h *streamable) dialFailed(err error) {
	if h.dialFailures.Add(1) < maxDialFailures {
		return
	}
	h.goneOnce.Do(func() {
		h.goneErr = fmt.Errorf("streamhttp: the server at %s is unreachable: %w", redactURL(h.b.endpoint), err)
		h.readable.wake()
		close(h.gone)
	})
}

// isUnreachable reports a failure to connect at all, as opposed to one on
// a connection that worked.
func isUnreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// A message on its way out, and the POST that carries it.

// outgoing is a message on its way: its frame, and what its POST needs to
// know of it.
type outgoing struct {
	id      jsonrpc.ID
	method  string
	frame   []byte
	params  json.RawMessage // once decoded is set
	decoded bool            // the frame was decoded: Write does, a Call need not
}

func (o *outgoing) isRequest() bool { return o.method != "" && o.id.IsValid() }

// newPost builds the POST for message m, and returns the session id it
// carries. info, if not nil, is what the session said about the request.
// The frame is the body as it is: net/http writes it to the connection.
func (h *streamable) newPost(ctx context.Context, info *reqinfo.Info, m *outgoing) (*http.Request, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.b.endpointURL, bytes.NewReader(m.frame))
	if err != nil {
		return nil, "", fmt.Errorf("streamhttp: %w", err)
	}
	h.mu.Lock()
	session, proto := h.session, h.proto
	h.mu.Unlock()
	// One array holds the values of the headers set here, each a slice of
	// one string that cannot grow into the next; keys are written in
	// their canonical form.
	var hv headerValues
	hv.vals = make([]string, 0, 6)
	hv.set(req.Header, "Content-Type", "application/json")
	hv.set(req.Header, "Accept", "application/json, text/event-stream")
	if session != "" {
		hv.set(req.Header, "Mcp-Session-Id", session)
	}
	if proto.Version != "" {
		hv.set(req.Header, "Mcp-Protocol-Version", proto.Version)
	}
	if proto.Stateless && m.method != "" {
		hv.set(req.Header, "Mcp-Method", m.method)
		// The session says what the request names; a bare stream user
		// leaves it to us to find out.
		name, ok := "", false
		if info != nil {
			name, ok = info.Name, info.Name != ""
		} else {
			name, ok = nameOf(m)
		}
		if ok {
			hv.set(req.Header, "Mcp-Name", encodeHeaderValue(name))
		}
		if info != nil {
			for k, v := range info.Headers {
				req.Header.Set(k, encodeHeaderValue(v))
			}
		}
	}
	return req, session, nil
}

// headerValues hands out the values of a request's headers from one
// array.
type headerValues struct{ vals []string }

// set sets the header key, which must be canonical, to value.
func (hv *headerValues) set(h http.Header, key, value string) {
	hv.vals = append(hv.vals, value)
	n := len(hv.vals)
	h[key] = hv.vals[n-1 : n : n]
}

// nameOf returns what Mcp-Name mirrors: params.name of tools/call and
// prompts/get, params.uri of resources/read.
func nameOf(m *outgoing) (string, bool) {
	var p struct {
		Name *string `json:"name"`
		URI  *string `json:"uri"`
	}
	switch m.method {
	case "tools/call", "prompts/get", "resources/read":
	default:
		return "", false
	}
	if !m.decoded {
		if d, err := rpcwire.Decode(m.frame); err == nil {
			m.params = d.Params
		}
		m.decoded = true
	}
	if len(m.params) == 0 || json.Unmarshal(m.params, &p) != nil {
		return "", false
	}
	switch {
	case m.method == "resources/read" && p.URI != nil:
		return *p.URI, true
	case m.method != "resources/read" && p.Name != nil:
		return *p.Name, true
	}
	return "", false
}
