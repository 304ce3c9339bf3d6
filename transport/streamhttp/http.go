package streamhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// HTTPError is an HTTP answer that carried no JSON-RPC message: a status
// the transport could not turn into a response. It matches
// transport.ErrRefused (errors.Is), which is what era detection looks at;
// the fallback to HTTP+SSE looks at StatusCode.
type HTTPError struct {
	Method     string // the HTTP method
	URL        string // redacted: no user info, no query
	StatusCode int
	Body       string // the start of the body, if any
}

// Is makes errors.Is(err, transport.ErrRefused) true.
func (e *HTTPError) Is(target error) bool { return target == transport.ErrRefused }

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("transport: %s %s: %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// streamable is the Streamable HTTP transport (protocol 2025-03-26 and later):
// every message the client sends is its own POST to the MCP endpoint, and
// the answer is a JSON body or a stream of Server-Sent Events that may
// carry the server's requests and notifications before the response. In
// the handshake era it keeps the server's Mcp-Session-Id, opens the
// optional GET stream for server-initiated messages and resumes a broken
// stream with Last-Event-ID.
//
// It implements jsonrpc.Stream: one goroutine at a time may Read, any
// number may Write (the POSTs run concurrently), and Close is safe from
// any goroutine.
type streamable struct {
	b      *httpBase
	in     chan inbound  // messages for Read
	done   chan struct{} // closed by Close
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // stream readers

	mu        sync.Mutex
	session   string
	proto     transport.Protocol
	listening bool
	closed    bool // set by Close before it waits for wg

	closeOnce sync.Once
}

// inbound is what Read hands on next: a message, or the news that the
// response to one request was lost.
type inbound struct {
	frame []byte
	lost  *jsonrpc.ResponseLostError
}

var _ jsonrpc.Stream = (*streamable)(nil)

// newStreamable checks cfg and returns a transport for the server at
// cfg.URL. Nothing is sent until the first Write.
func newStreamable(cfg Config) (*streamable, error) {
	b, err := newHTTPBase(&cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &streamable{b: b, in: make(chan inbound, 64), done: make(chan struct{}), ctx: ctx, cancel: cancel}, nil
}

// SetProtocol records what the session agreed on. In the handshake era,
// once a version is agreed it also opens the GET stream on which the
// server may send requests and notifications, waiting up to a second for
// the server's answer; a server without one answers 405 and nothing more
// is tried. The zero Protocol resets the transport
// for a handshake (no version header yet).
func (h *streamable) SetProtocol(p transport.Protocol) {
	h.mu.Lock()
	h.proto = p
	if p.Stateless {
		h.session = ""
	}
	listen := !p.Stateless && p.Version != "" && !h.listening && !h.closed
	if listen {
		h.listening = true
		h.wg.Add(1)
	}
	h.mu.Unlock()
	if listen {
		// Wait, briefly, for the server to answer the GET: then the stream
		// is in place before the session's next request, and a server
		// that sends on it at once is not missed.
		ready := make(chan struct{})
		go h.listen(ready)
		select {
		case <-ready:
		case <-time.After(listenWait):
		case <-h.done:
		}
	}
}

func (h *streamable) stateless() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.proto.Stateless
}

// SessionID is the server's Mcp-Session-Id, or "" when it gave none.
func (h *streamable) SessionID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.session
}

// Read returns the next message from the server, from whichever response
// or stream it arrived on.
func (h *streamable) Read() ([]byte, error) {
	select {
	case in := <-h.in:
		if in.lost != nil {
			return nil, in.lost
		}
		return in.frame, nil
	case <-h.done:
		return nil, fmt.Errorf("transport: reading: %w", jsonrpc.ErrClosed)
	}
}

// deliver queues a message for Read; it gives up when the transport is
// closed.
func (h *streamable) deliver(frame []byte) bool {
	select {
	case h.in <- inbound{frame: frame}:
		return true
	case <-h.done:
		return false
	}
}

// Close ends every stream, tells the server the session is over (DELETE,
// bounded by a short timeout of its own) and makes Read return. It is
// idempotent.
func (h *streamable) Close() error {
	h.closeOnce.Do(func() {
		h.mu.Lock()
		h.closed = true
		h.mu.Unlock()
		close(h.done)
		h.cancel()
		if id := h.SessionID(); id != "" {
			h.deleteSession(id)
		}
		h.wg.Wait()
		h.b.release()
	})
	return nil
}

func (h *streamable) deleteSession(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, h.b.endpoint.String(), nil)
	if err != nil {
		return
	}
	h.setCommonHeaders(req, id)
	resp, err := h.b.client.Do(req)
	if err != nil {
		h.logDebug("transport: ending the session failed", "error", err)
		return
	}
	drain(resp.Body)
}

// Write POSTs one message. For a request, it returns once the server has
// started answering; the answer is read in the background and handed to
// Read, with everything the server sends before it.
func (h *streamable) Write(ctx context.Context, frame []byte) error {
	m, err := jsonrpc.Decode(frame)
	if err != nil {
		return fmt.Errorf("transport: message to send: %w", err)
	}
	select {
	case <-h.done:
		return fmt.Errorf("transport: writing: %w", jsonrpc.ErrClosed)
	default:
	}
	if m.Method == "notifications/cancelled" && h.stateless() {
		// On the stateless wire, closing a request's stream is its
		// cancellation (the caller's context did that); the notification
		// is not sent.
		return nil
	}
	// The request's own context ends with the caller's or with Close.
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(h.ctx, cancel)
	background := false
	defer func() {
		if !background {
			stop()
			cancel()
		}
	}()
	if !m.IsRequest() {
		// A notification or a response is answered with 202 at once; a
		// request's exchange is bounded by its caller.
		var cancelTimeout context.CancelFunc
		ctx, cancelTimeout = context.WithTimeout(ctx, postTimeout)
		defer cancelTimeout()
	}

	req, sentSession, err := h.newPost(ctx, m, frame)
	if err != nil {
		return err
	}
	resp, err := h.b.client.Do(req)
	if err != nil {
		return fmt.Errorf("transport: POST %s: %w", redactURL(h.b.endpoint), urlErrorCause(err))
	}
	h.noteSession(resp)

	if resp.StatusCode == http.StatusNotFound && sentSession != "" {
		drain(resp.Body)
		h.forgetSession(sentSession)
		return fmt.Errorf("%w (POST answered 404 Not Found)", transport.ErrSessionExpired)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return h.failedPost(resp, m)
	}
	if !m.IsRequest() || resp.StatusCode == http.StatusAccepted {
		drain(resp.Body)
		return nil
	}
	switch mediaType(resp) {
	case "application/json":
		body, err := readBody(resp.Body, h.b.maxMessage)
		if err != nil {
			return fmt.Errorf("transport: reading the response to %s: %w", m.Method, err)
		}
		if len(bytes.TrimSpace(body)) > 0 {
			h.deliver(body)
		}
		return nil
	case "text/event-stream":
		if !h.track() {
			resp.Body.Close()
			return fmt.Errorf("transport: writing: %w", jsonrpc.ErrClosed)
		}
		background = true
		go func() {
			defer h.wg.Done()
			defer cancel()
			defer stop()
			h.followStream(ctx, resp.Body, m.ID)
		}()
		return nil
	default:
		drain(resp.Body)
		return fmt.Errorf("transport: POST %s: unexpected content type %q in the answer to %s", redactURL(h.b.endpoint), resp.Header.Get("Content-Type"), m.Method)
	}
}

// track counts a background stream reader in wg, unless Close has begun
// (Add must not race with Close's Wait).
func (h *streamable) track() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.wg.Add(1)
	return true
}

// failedPost turns a non-2xx answer into what the client needs: a JSON-RPC
// error in the body becomes the request's response (modern servers answer
// 400 with -32022, -32020 …); anything else is an *HTTPError.
func (h *streamable) failedPost(resp *http.Response, m *jsonrpc.Message) error {
	body, _ := readBody(resp.Body, 64<<10)
	if m.IsRequest() {
		if e := errorInBody(body); e != nil {
			h.deliver(jsonrpc.AppendError(nil, m.ID, e))
			return nil
		}
	}
	return &HTTPError{Method: http.MethodPost, URL: redactURL(h.b.endpoint), StatusCode: resp.StatusCode, Body: excerpt(body)}
}

// errorInBody returns the JSON-RPC error object in body, if it holds one.
func errorInBody(body []byte) *jsonrpc.Error {
	var env struct {
		Error *jsonrpc.Error `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil || env.Error == nil || (env.Error.Code == 0 && env.Error.Message == "") {
		return nil
	}
	return env.Error
}

func mediaType(resp *http.Response) string {
	t, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return t
}
