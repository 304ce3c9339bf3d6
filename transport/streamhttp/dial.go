package streamhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/plainmcp/plainmcp/internal/logging"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// Stream is an MCP client's stream to one server over HTTP: Streamable
// HTTP, or the legacy HTTP+SSE transport for servers that predate it. It
// implements jsonrpc.Stream and transport.ProtocolSetter, so a session
// runs over it as over stdio (mcpclient.Connect). One goroutine at a time
// may Read, any number may Write, and Close is safe from any goroutine,
// any number of times.
type Stream struct {
	cfg Config

	mu      sync.Mutex
	cur     jsonrpc.Stream // *streamable, or *legacy after Dial or a fallback
	settled bool           // a message got through: no more fallback
	closed  bool
	onRead  func() // registered by NotifyRead
}

var (
	_ rpcwire.Caller           = (*Stream)(nil)
	_ rpcwire.ReadNotifier     = (*Stream)(nil)
	_ transport.ProtocolSetter = (*Stream)(nil)
)

// Dial returns a stream to the MCP server at cfg.URL.
//
// By default it speaks Streamable HTTP and sends nothing yet. If the
// server refuses the first initialize request with 400, 404 or 405 before
// any message got through, the stream falls back to the HTTP+SSE
// transport of 2024-11-05 at the same URL and sends it there, as the
// specification's backwards-compatibility section describes; the caller
// sees one stream either way (see Stream.Legacy).
//
// With cfg.Legacy set, Dial speaks HTTP+SSE alone: it opens the event
// stream now and waits for the server's endpoint event, within ctx and a
// bound of its own. The stream then lives until Close, whatever happens to
// ctx.
func Dial(ctx context.Context, cfg Config) (*Stream, error) {
	if cfg.Legacy {
		l, err := dialLegacy(ctx, cfg)
		if err != nil {
			return nil, err
		}
		return &Stream{cfg: cfg, cur: l, settled: true}, nil
	}
	h, err := newStreamable(cfg)
	if err != nil {
		return nil, err
	}
	return &Stream{cfg: cfg, cur: h}, nil
}

// Legacy reports whether the stream speaks the HTTP+SSE transport of
// 2024-11-05, because the config asked for it or the server refused
// Streamable HTTP.
func (s *Stream) Legacy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.cur.(*legacy)
	return ok
}

// SessionID is the server's Mcp-Session-Id, or "" when it gave none (or
// the stream speaks HTTP+SSE, whose sessions live in the endpoint URL).
func (s *Stream) SessionID() string {
	s.mu.Lock()
	h, ok := s.cur.(*streamable)
	s.mu.Unlock()
	if !ok {
		return ""
	}
	return h.SessionID()
}

// SetProtocol passes what the session agreed on to the transport: see the
// package documentation for what it changes on the wire.
func (s *Stream) SetProtocol(p transport.Protocol) {
	s.mu.Lock()
	cur := s.cur
	s.mu.Unlock()
	if ps, ok := cur.(transport.ProtocolSetter); ok {
		ps.SetProtocol(p)
	}
}

// Read returns the next message from the server.
func (s *Stream) Read() ([]byte, error) {
	for {
		s.mu.Lock()
		cur := s.cur
		s.mu.Unlock()
		frame, err := cur.Read()
		if err != nil && errors.Is(err, jsonrpc.ErrClosed) {
			s.mu.Lock()
			moved := s.cur != cur && !s.closed
			s.mu.Unlock()
			if moved {
				continue // the fallback closed the old transport: read the new one
			}
		}
		return frame, err
	}
}

// NotifyRead registers f, called before Read first has a message or an
// error to return (rpcwire.ReadNotifier). Over HTTP+SSE, whose answers
// all come through Read, that is at once, or at the fallback.
func (s *Stream) NotifyRead(f func()) {
	s.mu.Lock()
	s.onRead = f
	cur := s.cur
	s.mu.Unlock()
	rpcwire.NotifyRead(cur, f)
}

// Write sends one message; see the transports for what it waits for.
func (s *Stream) Write(ctx context.Context, frame []byte) error {
	s.mu.Lock()
	cur, settled := s.cur, s.settled
	s.mu.Unlock()
	err := cur.Write(ctx, frame)
	if err == nil {
		s.settle(settled)
		return nil
	}
	return s.fallBack(ctx, err, settled, frame)
}

// Call sends a request and returns its response, read on the calling
// goroutine (rpcwire.Caller): see the Streamable HTTP transport. Over
// HTTP+SSE, whose answers all come on one event stream, the response comes
// through Read, and Call returns nil.
func (s *Stream) Call(ctx context.Context, id jsonrpc.ID, method string, frame []byte) ([]byte, error) {
	s.mu.Lock()
	cur, settled := s.cur, s.settled
	s.mu.Unlock()
	c, ok := cur.(rpcwire.Caller)
	if !ok {
		return nil, s.Write(ctx, frame)
	}
	answer, err := c.Call(ctx, id, method, frame)
	if err == nil || errors.Is(err, rpcwire.ErrBadResponse) || errors.Is(err, jsonrpc.ErrResponseLost) {
		s.settle(settled) // an answer came: the server speaks Streamable HTTP
		return answer, err
	}
	return nil, s.fallBack(ctx, err, settled, frame)
}

// settle records that a message got through, which rules out a fallback.
func (s *Stream) settle(settled bool) {
	if !settled {
		s.mu.Lock()
		s.settled = true
		s.mu.Unlock()
	}
}

// fallBack sends frame over HTTP+SSE if err is the refusal of the first
// initialize that means the server predates Streamable HTTP, and returns
// err otherwise.
func (s *Stream) fallBack(ctx context.Context, err error, settled bool, frame []byte) error {
	if settled || !refusedInitialize(err, frame) {
		return err
	}
	l, lerr := dialLegacy(ctx, s.cfg)
	var he *HTTPError
	switch {
	case errors.As(lerr, &he) && (he.StatusCode == http.StatusUnauthorized || he.StatusCode == http.StatusForbidden):
		// The legacy endpoint wants credentials: that is what a host
		// must act on (errors.As finds it first), not the refusal.
		return fmt.Errorf("%w (after Streamable HTTP was refused: %v)", lerr, err)
	case lerr != nil:
		return fmt.Errorf("%w (the legacy HTTP+SSE transport did not answer either: %v)", err, lerr)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		l.Close()
		return fmt.Errorf("streamhttp: writing: %w", jsonrpc.ErrClosed)
	}
	old, onRead := s.cur, s.onRead
	s.cur, s.settled = l, true
	s.mu.Unlock()
	old.Close()
	if onRead != nil {
		onRead() // HTTP+SSE answers through Read
	}
	if logging.Usable(s.cfg.Logger) != nil {
		s.cfg.Logger.Debug("streamhttp: the server refused Streamable HTTP; speaking HTTP+SSE", "refusal", err)
	}
	return l.Write(ctx, frame)
}

// refusedInitialize reports whether err is the answer that sends a client
// to the legacy transport: 400, 404 or 405 to a POSTed initialize.
func refusedInitialize(err error, frame []byte) bool {
	var he *HTTPError
	if !errors.As(err, &he) || he.Method != http.MethodPost {
		return false
	}
	switch he.StatusCode {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
	default:
		return false
	}
	m, derr := rpcwire.Decode(frame)
	return derr == nil && m.Method == "initialize"
}

// Close ends the stream and whatever it holds open. It is idempotent.
func (s *Stream) Close() error {
	s.mu.Lock()
	s.closed = true
	cur := s.cur
	s.mu.Unlock()
	return cur.Close()
}

// Format prints the stream as its config prints: the URL without user
// info or query, no credentials.
func (s *Stream) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), "streamhttp.Stream"+fmt.Sprintf("%+v", s.cfg))
}
