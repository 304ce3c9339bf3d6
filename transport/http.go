package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// ErrSessionExpired is wrapped by Write's error when the server answered
// 404 to a request carrying its session id: the session is gone and the
// client must initialize a new one (the transport has already forgotten
// the old id).
var ErrSessionExpired = errors.New("transport: the server ended the session")

// CodeResponseLost is the code of the error response the HTTP transport
// delivers in place of a response that can no longer arrive: the request's
// stream broke and could not be resumed. In the stateless era the client
// re-issues such a request under a new id.
const CodeResponseLost = -32099

// HTTPError is an HTTP answer that carried no JSON-RPC message: a status
// the transport could not turn into a response. Era detection and the
// legacy HTTP+SSE fallback look at StatusCode.
type HTTPError struct {
	Method     string // the HTTP method
	URL        string // redacted: no user info, no query
	StatusCode int
	Body       string // the start of the body, if any
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("transport: %s %s: %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// Protocol tells an HTTP transport what the session agreed on; mcpclient
// calls SetProtocol after the handshake (or discovery) so the transport
// can shape every later request.
type Protocol struct {
	// Version goes in the MCP-Protocol-Version header of every request.
	Version string
	// Stateless selects the 2026-07-28 wire: no session id, no GET stream,
	// Mcp-Method and Mcp-Name headers on every request.
	Stateless bool
}

// HTTP is the Streamable HTTP transport (protocol 2025-03-26 and later):
// every message the client sends is its own POST to the MCP endpoint, and
// the answer is a JSON body or a stream of Server-Sent Events that may
// carry the server's requests and notifications before the response. In
// the handshake era it keeps the server's Mcp-Session-Id, opens the
// optional GET stream for server-initiated messages and resumes a broken
// stream with Last-Event-ID.
//
// HTTP implements jsonrpc.Stream: one goroutine at a time may Read, any
// number may Write (the POSTs run concurrently), and Close is safe from
// any goroutine.
type HTTP struct {
	b      *httpBase
	in     chan []byte   // messages for Read
	done   chan struct{} // closed by Close
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // stream readers

	mu        sync.Mutex
	session   string
	proto     Protocol
	listening bool
	closed    bool // set by Close before it waits for wg

	closeOnce sync.Once
}

var _ jsonrpc.Stream = (*HTTP)(nil)

// NewHTTP checks cfg and returns a transport for the server at cfg.URL.
// Nothing is sent until the first Write.
func NewHTTP(cfg HTTPConfig) (*HTTP, error) {
	b, err := newHTTPBase(&cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &HTTP{b: b, in: make(chan []byte, 64), done: make(chan struct{}), ctx: ctx, cancel: cancel}, nil
}

// SetProtocol records what the session agreed on. In the handshake era,
// once a version is agreed it also opens the GET stream on which the
// server may send requests and notifications, waiting up to a second for
// the server's answer; a server without one answers 405 and nothing more
// is tried. The zero Protocol resets the transport
// for a handshake (no version header yet).
func (h *HTTP) SetProtocol(p Protocol) {
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

func (h *HTTP) stateless() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.proto.Stateless
}

// SessionID is the server's Mcp-Session-Id, or "" when it gave none.
func (h *HTTP) SessionID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.session
}

// Read returns the next message from the server, from whichever response
// or stream it arrived on.
func (h *HTTP) Read() ([]byte, error) {
	select {
	case f := <-h.in:
		return f, nil
	case <-h.done:
		return nil, fmt.Errorf("transport: reading: %w", jsonrpc.ErrClosed)
	}
}

// deliver queues a message for Read; it gives up when the transport is
// closed.
func (h *HTTP) deliver(frame []byte) bool {
	select {
	case h.in <- frame:
		return true
	case <-h.done:
		return false
	}
}

// Close ends every stream, tells the server the session is over (DELETE,
// bounded by the request timeout) and makes Read return. It is
// idempotent.
func (h *HTTP) Close() error {
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

func (h *HTTP) deleteSession(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), min(h.b.timeout, deleteTimeout))
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
func (h *HTTP) Write(ctx context.Context, frame []byte) error {
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
		var cancelTimeout context.CancelFunc
		ctx, cancelTimeout = context.WithTimeout(ctx, h.b.timeout)
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
		return fmt.Errorf("%w (POST answered 404 Not Found)", ErrSessionExpired)
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
func (h *HTTP) track() bool {
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
func (h *HTTP) failedPost(resp *http.Response, m *jsonrpc.Message) error {
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
