package streamhttp

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
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
	Body       string        // the start of the body, if any
	RetryAfter time.Duration // what a 429 or 503 advised, if it did
}

// Is makes errors.Is(err, transport.ErrRefused) true.
func (e *HTTPError) Is(target error) bool { return target == transport.ErrRefused }

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("streamhttp: %s %s: %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" (the server asks to retry after %v)", e.RetryAfter)
	}
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
	in     chan inbound // messages for Read
	ctx    context.Context
	cancel context.CancelFunc // Close's: ctx.Done() is closed once it began
	wg     sync.WaitGroup     // stream readers

	// gone is closed when the server turned out to be unreachable, which
	// ends the stream (Read returns goneErr) and so the session.
	gone         chan struct{}
	goneErr      error
	goneOnce     sync.Once
	dialFailures atomic.Int32  // in a row
	drainWait    time.Duration // see defaultDrainWait
	readable     readWaker     // starts the Conn's read loop when Read first has something

	mu        sync.Mutex
	session   string
	proto     transport.Protocol
	listening bool
	closed    bool // set by Close before it waits for wg

	closeOnce sync.Once
}

// inbound is what Read hands on next: a message, or the failure of one
// call (a *rpcwire.ResponseLostError or *rpcwire.BadResponseError), which
// ends that call and not the stream.
type inbound struct {
	frame []byte
	fail  error
}

var _ jsonrpc.Stream = (*streamable)(nil)

// inboundQueue is how many messages wait for Read before their stream
// readers wait in turn. A few cover a burst (the messages ahead of a
// response, a GET stream's notifications); more would only cost every
// idle session their room (40 bytes each).
const inboundQueue = 16

// newStreamable checks cfg and returns a transport for the server at
// cfg.URL. Nothing is sent until the first Write.
func newStreamable(cfg Config) (*streamable, error) {
	b, err := newHTTPBase(&cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &streamable{b: b, in: make(chan inbound, inboundQueue), gone: make(chan struct{}), ctx: ctx, cancel: cancel,
		drainWait: defaultDrainWait}, nil
}

// SetProtocol records what the session agreed on. In the handshake era,
// once a version is agreed it also opens the GET stream on which the
// server may send requests and notifications (unless p.Quiet says none
// may come), waiting up to a second for
// the server's answer; a server without one answers 405 and nothing more
// is tried. The zero Protocol resets the transport
// for a handshake (no version header yet).
func (h *streamable) SetProtocol(p transport.Protocol) {
	h.mu.Lock()
	h.proto = p
	if p.Stateless {
		h.session = ""
	}
	listen := !p.Stateless && !p.Quiet && p.Version != "" && !h.listening && !h.closed
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
		case <-h.ctx.Done():
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
		if in.fail != nil {
			return nil, in.fail
		}
		return in.frame, nil
	case <-h.gone:
		return nil, h.goneErr
	case <-h.ctx.Done():
		return nil, fmt.Errorf("streamhttp: reading: %w", jsonrpc.ErrClosed)
	}
}

// deliver queues a message for Read; it gives up when the transport is
// closed.
func (h *streamable) deliver(frame []byte) bool {
	h.readable.wake()
	select {
	case h.in <- inbound{frame: frame}:
		return true
	case <-h.ctx.Done():
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
		h.logDebug("streamhttp: ending the session failed", "error", urlErrorCause(err))
		return
	}
	drain(resp.Body)
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

// refused turns a non-2xx answer into what the client needs: a session
// the server ended is ErrSessionExpired; a JSON-RPC error in the body of
// the answer to a request becomes that request's response, returned as a
// frame (modern servers answer 400 with -32022, -32020 …); anything else
// is an *HTTPError.
func (h *streamable) refused(resp *http.Response, m *outgoing, sentSession string) ([]byte, error) {
	body := bodyHead(resp.Body, errorBodyLimit)
	if h.expired(resp, sentSession, body) {
		return nil, fmt.Errorf("%w (POST answered %d %s)", transport.ErrSessionExpired, resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	if m.isRequest() {
		if e := errorInBody(body); e != nil {
			return rpcwire.AppendError(nil, m.id, e), nil
		}
	}
	return nil, &HTTPError{Method: http.MethodPost, URL: redactURL(h.b.endpoint), StatusCode: resp.StatusCode,
		Body: redactedExcerpt(h.b, body), RetryAfter: retryAfterOf(resp)}
}

// failedPost is refused for a message sent with Write: an error response
// goes to Read.
func (h *streamable) failedPost(resp *http.Response, m *outgoing, sentSession string) error {
	answer, err := h.refused(resp, m, sentSession)
	if answer != nil {
		h.deliver(answer)
	}
	return err
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
	ct := resp.Header.Get("Content-Type")
	switch ct {
	case "application/json", "text/event-stream": // as nearly every server sends them
		return ct
	}
	t, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return t
}
