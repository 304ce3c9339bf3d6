package streamhttp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

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
//
// Its methods live by idea: its state, session and end here; what Read
// hands on in inbound.go; the POST of a message, and Write, in post.go;
// the direct path of a request (Call) in call.go; a JSON answer in
// answer.go and jsonbody.go; an event stream that answers in
// eventstream.go, the GET stream in getstream.go, the era probe in
// probe.go; error answers in httperror.go; bodies drained for the
// connection's reuse in drain.go.
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

var _ jsonrpc.Stream = (*streamable)(nil)

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

// listenWait bounds SetProtocol's wait for the server's answer to the GET
// stream.
const listenWait = time.Second

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

// usable returns why nothing can be sent any more, or nil.
func (h *streamable) usable() error {
	select {
	case <-h.ctx.Done():
		return fmt.Errorf("streamhttp: writing: %w", jsonrpc.ErrClosed)
	case <-h.gone:
		return h.goneErr
	default:
		return nil
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

// deleteTimeout bounds the DELETE that ends the session at Close.
const deleteTimeout = 2 * time.Second

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

// The session of the handshake era: the Mcp-Session-Id the server
// assigned, sent back on every request until the server says it is gone.

// SessionID is the server's Mcp-Session-Id, or "" when it gave none.
func (h *streamable) SessionID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.session
}

// maxSessionID bounds the Mcp-Session-Id a server may give.
const maxSessionID = 1024

// noteSession keeps the session id a handshake-era server assigns, after
// checking it: visible ASCII only, and not absurdly long.
func (h *streamable) noteSession(resp *http.Response) error {
	id := resp.Header.Get("Mcp-Session-Id")
	if id == "" {
		return nil
	}
	if len(id) > maxSessionID || strings.IndexFunc(id, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0 {
		return fmt.Errorf("streamhttp: the server gave an invalid Mcp-Session-Id (%d bytes; it must be at most %d of visible ASCII)", len(id), maxSessionID)
	}
	h.mu.Lock()
	if h.session == "" && !h.proto.Stateless {
		h.session = id
	}
	h.mu.Unlock()
	return nil
}

// setCommonHeaders adds the session and protocol version headers.
func (h *streamable) setCommonHeaders(req *http.Request, session string) {
	h.mu.Lock()
	version := h.proto.Version
	h.mu.Unlock()
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if version != "" {
		req.Header.Set("MCP-Protocol-Version", version)
	}
}

// expired reports whether an error answer says the session is gone: 404
// to a request that carried a session id, as the specification says, or
// 400 whose body says the session is unknown, as some servers answer after
// a restart. The session is forgotten.
func (h *streamable) expired(resp *http.Response, sentSession string, body []byte) bool {
	if sentSession == "" {
		return false
	}
	stale := resp.StatusCode == http.StatusNotFound ||
		resp.StatusCode == http.StatusBadRequest && mentionsStaleSession(body)
	if stale {
		h.forgetSession(sentSession)
	}
	return stale
}

// mentionsStaleSession reports whether an error body says the session id
// is unknown or invalid ("Bad Request: No valid session ID provided",
// "Session not found", …).
func mentionsStaleSession(body []byte) bool {
	s := strings.ToLower(string(body))
	if !strings.Contains(s, "session") {
		return false
	}
	for _, w := range []string{"not found", "unknown", "invalid", "no valid", "expired", "does not exist", "terminated"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// forgetSession drops an expired session so the next initialize starts a
// new one.
func (h *streamable) forgetSession(id string) {
	h.mu.Lock()
	if h.session == id {
		h.session = ""
	}
	h.mu.Unlock()
}

func (h *streamable) logDebug(msg string, args ...any) {
	if h.b.log != nil {
		h.b.log.Debug(msg, args...)
	}
}
