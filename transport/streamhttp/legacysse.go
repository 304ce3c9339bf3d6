package streamhttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// defaultConnectTimeout bounds opening the legacy event stream and waiting
// for its endpoint event, whatever the caller's context allows.
const defaultConnectTimeout = 30 * time.Second

func connectTimeoutOf(cfg Config) time.Duration {
	if cfg.ConnectTimeout > 0 {
		return cfg.ConnectTimeout
	}
	return defaultConnectTimeout
}

// legacy is the HTTP+SSE transport of MCP 2024-11-05: the server's messages
// arrive as "message" events on one long-lived GET stream, and each of ours
// is POSTed to the endpoint URL the server named in its first event.
// Servers that speak only this transport are still common.
//
// It implements jsonrpc.Stream: one goroutine at a time may Read, any
// number may Write (each Write is an independent POST), and Close may be
// called from any goroutine, any number of times. The transport starts no
// goroutine of its own.
type legacy struct {
	base     *httpBase
	messages *url.URL // where frames are POSTed
	events   *sseReader
	body     io.ReadCloser
	cancel   context.CancelFunc // ends the GET stream and every POST
	stream   context.Context    // ended by cancel

	done      chan struct{} // closed by Close
	closeOnce sync.Once
}

var _ jsonrpc.Stream = (*legacy)(nil)

// dialLegacy opens the event stream at cfg.URL and waits for the server's
// endpoint event. ctx and Config.ConnectTimeout bound only that: connecting, and
// waiting for the endpoint; the stream then lives until Close.
//
// The endpoint must have the same origin (scheme, host and port) as
// cfg.URL, so that a server cannot send our messages, and the credentials
// that go with them, elsewhere. Events the server sends before the
// endpoint event are dropped.
func dialLegacy(ctx context.Context, cfg Config) (*legacy, error) {
	base, err := newHTTPBase(&cfg)
	if err != nil {
		return nil, err
	}
	where := redactURL(base.endpoint)
	ctx, cancelConnect := context.WithTimeout(ctx, connectTimeoutOf(cfg))
	defer cancelConnect()
	stream, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel) // until the endpoint arrives
	s, err := dialLegacyStream(stream, base)
	if !stop() { // ctx ended, and with it the stream
		cancel()
		if s != nil {
			s.body.Close()
			s.events.release()
		}
		return nil, fmt.Errorf("streamhttp: waiting for the endpoint event from %s: %w", where, ctx.Err())
	}
	if err != nil {
		cancel()
		if s != nil {
			s.body.Close()
			s.events.release()
		}
		return nil, err
	}
	s.stream, s.cancel = stream, cancel
	return s, nil
}

func dialLegacyStream(ctx context.Context, base *httpBase) (*legacy, error) {
	where := redactURL(base.endpoint)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base.endpoint.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("streamhttp: GET %s: %w", where, err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Cache-Control", "no-cache")
	// The stream lives until Close: a Timeout on the caller's client, meant
	// for single exchanges, must not cut it.
	client := *base.client
	client.Timeout = 0
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("streamhttp: GET %s: %w", where, urlErrorCause(err))
	}
	if err := statusError(base, resp, "GET", where); err != nil {
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body.Close()
		return nil, fmt.Errorf("streamhttp: GET %s: got Content-Type %q, want text/event-stream (is this an MCP HTTP+SSE endpoint?)",
			where, truncateHeader(resp.Header.Get("Content-Type"))) // a server's header: up to net/http's 10 MiB
	}
	s := &legacy{base: base, body: resp.Body, events: newSSEReader(resp.Body, base.maxMessage), done: make(chan struct{})}
	for s.messages == nil {
		ev, err := s.events.Next()
		if err == io.EOF {
			err = errors.New("the stream ended")
		}
		if err != nil {
			return s, fmt.Errorf("streamhttp: waiting for the endpoint event from %s: %w", where, err)
		}
		if ev.Type != "endpoint" {
			s.debug("dropped an event that came before the endpoint event", ev, len(ev.Data))
			continue
		}
		u, err := base.endpoint.Parse(strings.TrimSpace(ev.Data))
		if err != nil {
			return s, fmt.Errorf("streamhttp: the endpoint event from %s: %w", where, urlErrorCause(err))
		}
		if origin(u) != origin(base.endpoint) {
			return s, fmt.Errorf("streamhttp: the endpoint event from %s names another origin (%s); refusing to send messages there",
				where, origin(u))
		}
		u.Fragment, u.RawFragment = "", ""
		s.messages = u
	}
	return s, nil
}

// Read returns the data of the next "message" event: one JSON-RPC frame,
// in a slice that belongs to the caller. Other events are skipped. When the
// event stream ends, Read returns an error wrapping io.EOF if the server
// closed it and another error if it broke; the 2024-11-05 transport has no
// way to resume, so the session is over. After Close, Read returns an error
// wrapping jsonrpc.ErrClosed.
func (s *legacy) Read() ([]byte, error) {
	for {
		if s.closed() {
			return nil, fmt.Errorf("streamhttp: reading the event stream: %w", jsonrpc.ErrClosed)
		}
		ev, data, err := s.events.NextBytes()
		switch {
		case s.closed():
			return nil, fmt.Errorf("streamhttp: reading the event stream: %w", jsonrpc.ErrClosed)
		case err == io.EOF:
			return nil, fmt.Errorf("streamhttp: the event stream from %s ended: %w", redactURL(s.base.endpoint), io.EOF)
		case err != nil:
			return nil, fmt.Errorf("streamhttp: the event stream from %s broke: %w", redactURL(s.base.endpoint), err)
		case ev.Type != "" && ev.Type != "message":
			s.debug("skipped an event that is not a message", ev, len(data))
		case len(bytes.TrimSpace(data)) == 0:
			s.debug("skipped a message event without data", ev, len(data))
		default:
			return data, nil
		}
	}
}

// Write POSTs frame to the server's endpoint as application/json and
// returns once the server accepted it (any 2xx status; 202 usually). The
// answer to a request arrives later, through Read. Write is bounded by ctx
// and by a timeout of its own (the answer arrives on the event stream,
// so the POST itself is short); it returns ctx.Err() when ctx ends, and
// an error wrapping jsonrpc.ErrClosed after Close. It does not keep frame.
func (s *legacy) Write(ctx context.Context, frame []byte) error {
	if s.closed() {
		return fmt.Errorf("streamhttp: posting to the SSE endpoint: %w", jsonrpc.ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	defer context.AfterFunc(s.stream, cancel)()
	where := redactURL(s.messages)
	// The client may still read the body after Do returns, so it gets a copy.
	body := bytes.NewReader(bytes.Clone(frame))
	req, err := http.NewRequestWithContext(pctx, http.MethodPost, s.messages.String(), body)
	if err != nil {
		return fmt.Errorf("streamhttp: POST %s: %w", where, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.base.client.Do(req)
	switch {
	case err == nil:
	case s.closed():
		return fmt.Errorf("streamhttp: posting to the SSE endpoint: %w", jsonrpc.ErrClosed)
	case ctx.Err() != nil:
		return ctx.Err()
	case pctx.Err() != nil:
		return fmt.Errorf("streamhttp: POST %s: no answer within %v", where, postTimeout)
	default:
		return fmt.Errorf("streamhttp: POST %s: %w", where, urlErrorCause(err))
	}
	if err := statusError(s.base, resp, "POST", where); err != nil {
		return err
	}
	closeShort(resp) // the answer comes on the event stream; this body is nothing
	return nil
}

// Close ends the event stream and any POST in progress. It is idempotent,
// safe from any goroutine, and always returns nil.
func (s *legacy) Close() error {
	s.closeOnce.Do(func() {
		close(s.done)
		s.cancel()
		s.body.Close()
		s.events.release() // safe while a Read is blocked: it comes back when Next returns
		s.base.release()
	})
	return nil
}

func (s *legacy) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

func (s *legacy) debug(msg string, ev event, size int) {
	if s.base.log != nil {
		s.base.log.Debug("streamhttp: "+msg, "event", ev.Type, "bytes", size)
	}
}
