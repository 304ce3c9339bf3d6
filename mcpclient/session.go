package mcpclient

import (
	"context"

	"sync"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Era is the generation of the protocol a session speaks. It decides how
// requests are framed; the Session API is the same in both.
type Era int

const (
	// EraHandshake is 2024-11-05 … 2025-11-25: initialize, then a
	// stateful session with server→client requests.
	EraHandshake Era = iota + 1
	// EraStateless is 2026-07-28 and later: no handshake, every request
	// carries its own metadata.
	EraStateless
)

func (e Era) String() string {
	switch e {
	case EraHandshake:
		return "handshake"
	case EraStateless:
		return "stateless"
	}
	return "unknown"
}

// Session is one MCP session with one server. It is safe for concurrent
// use: any number of goroutines may call it at once, and server requests
// are answered while calls are in flight.
type Session struct {
	conn      *jsonrpc.Conn
	stream    jsonrpc.Stream
	connReady chan struct{} // closed once conn is set: the read loop may need it sooner
	opts      Options

	wire wire // how requests travel in the era agreed; set by Connect
	// shapesRequests: the stream takes the agreed protocol (an HTTP
	// transport), and with it each request's reqinfo.Info.
	shapesRequests bool

	log logging.Logger

	// reinitMu serializes re-initializations, so that the many calls that
	// notice an expired HTTP session together run one handshake, not one
	// each; sessionGen counts handshakes, so a call can tell whether the
	// session it failed on has been replaced already. Taken before stateMu.
	reinitMu   sync.Mutex
	sessionGen atomic.Int64

	// stateMu guards what the handshake (or discovery) established, which a
	// re-initialization replaces while calls read it: the fields below, up
	// to the blank line.
	stateMu      sync.Mutex
	era          Era
	want         string // the version asked for
	logLevel     string // stateless era: sent with every request
	version      string
	serverInfo   Implementation
	capabilities ServerCapabilities
	instructions string

	// progressMu guards progress, the calls that asked for progress
	// reports, so the read loop can route a report while calls come and go.
	discoverUnanswered atomic.Bool // the probe waited out its timeout

	progressSeq atomic.Int64
	progressMu  sync.Mutex
	progress    map[int64]*progressWatch // by progress token; made for the first call that asks
	// sweep ends the exchanges of progress whose deadline passed; it is
	// due at sweepAt (zero: not due), nil until needed (timeout.go).
	sweep    *time.Timer
	sweepAt  time.Time
	sweepOff bool // the session is closed: the sweep is never set again

	meta    atomic.Pointer[[]byte] // stateless era: the _meta members of every request
	listen  listener               // stateless era: the subscriptions/listen request
	headers toolHeaders            // stateless era: Mcp-Param headers per tool
	cache   listCache              // stateless era: list pages within their ttlMs
	tasks   sessionTasks           // what Options.Tasks attached, or nil

	// bgMu guards closed, so that no cancellation notice is started after
	// Close began waiting for the ones in flight (background).
	bgMu        sync.Mutex
	closed      bool
	background  sync.WaitGroup // cancellation notices in flight
	noticeSlots chan struct{}  // a token per notice being sent
}

// DiscoverUnanswered reports whether the server left the server/discover
// probe unanswered for its whole timeout before the session fell back to
// initialize: a handshake-era server that ignores methods it does not
// know. A host that connects to it again can pin a handshake-era version
// (Options.ProtocolVersion) and spare that wait.
func (s *Session) DiscoverUnanswered() bool { return s.discoverUnanswered.Load() }

// Era reports which generation of the protocol the session speaks.
func (s *Session) Era() Era {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.era
}

// ProtocolVersion is the version agreed with the server.
func (s *Session) ProtocolVersion() string {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.version
}

// ServerInfo is the server's name, version and other details, as it sent
// them. It is data from the server, not instructions.
func (s *Session) ServerInfo() Implementation {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.serverInfo
}

// Capabilities are what the server declared it offers.
func (s *Session) Capabilities() ServerCapabilities {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.capabilities
}

// Instructions is the server's optional usage hint for the host's model.
// Treat it as untrusted data.
func (s *Session) Instructions() string {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.instructions
}

// Done is closed when the session has ended: Close, or the server went away.
func (s *Session) Done() <-chan struct{} { return s.conn.Done() }

// Err says why the session ended (wrapping jsonrpc.ErrClosed or
// jsonrpc.ErrDisconnected), or nil while it runs.
func (s *Session) Err() error { return s.conn.Err() }

// Close ends the session: calls in flight fail with ErrClosed and the
// stream is closed (for stdio, the server process is shut down). The
// notifications that came before are handed to their callbacks before it
// returns; if a callback keeps it waiting more than a moment, those still
// undelivered are dropped (see jsonrpc.Conn.Close). No callback is called
// after Close returns. It is idempotent and safe to call from any
// goroutine, a callback's too.
func (s *Session) Close() error {
	s.bgMu.Lock()
	s.closed = true
	s.bgMu.Unlock()
	s.stopListening()
	// A cancellation notice for a call abandoned just before Close (a
	// host's Ctrl-C, say) should still reach the server: give the notices
	// in flight a moment before the stream goes.
	sent := make(chan struct{})
	go func() { s.background.Wait(); close(sent) }()
	t := time.NewTimer(closeNoticeWait)
	select {
	case <-sent:
	case <-t.C:
	}
	t.Stop()
	err := s.conn.Close()
	s.stopSweep()
	<-sent // the rest fail at once now that the conn is closed
	return err
}

// closeNoticeWait bounds how long Close waits for cancellation notices.
const closeNoticeWait = 500 * time.Millisecond

// maxNoticesInFlight bounds the cancellation notices sent at once.
const maxNoticesInFlight = 16

// noticeQueueWait bounds how long a cancellation notice waits for its turn.
const noticeQueueWait = 30 * time.Second

// cancelNoticeTimeout bounds the background send of notifications/cancelled.
const cancelNoticeTimeout = 5 * time.Second

// abandoned tells the server we gave up on a request. The spec forbids
// cancelling initialize.
func (s *Session) abandoned(id jsonrpc.ID, method string) {
	if method == methodInitialize || method == methodDiscover {
		return // never cancel the lifecycle (the probe may be a legacy server's first message)
	}
	s.inBackground(func() {
		// A storm of cancellations sends a few notices at a time (over
		// HTTP each is a POST, maybe a connection); the others wait their
		// turn, within a bound, or until the session ends.
		wait := time.NewTimer(noticeQueueWait)
		defer wait.Stop()
		select {
		case s.noticeSlots <- struct{}{}:
			defer func() { <-s.noticeSlots }()
		case <-wait.C:
			s.log.Debug("mcpclient: too many cancellations at once; one was not sent", "id", id, "method", method)
			return
		case <-s.conn.Done():
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), cancelNoticeTimeout)
		defer cancel()
		params := map[string]any{"requestId": id, "reason": "the client no longer waits for this request"}
		if err := s.conn.Notify(ctx, noteCancelled, params); err != nil {
			s.log.Debug("mcpclient: could not send cancellation", "id", id, "method", method, "error", err)
		}
	})
}

// callDetached sends a request whose answer nobody waits for — an
// extension's cancellation of work at the server (tasks/cancel), say —
// detached from any caller's context and bounded on its own, as the
// session's cancellation notices are; Close gives it the same moment to
// go out. name is mirrored as callNamed mirrors it; a failure is only
// logged.
func (s *Session) callDetached(method, name string, params any) {
	s.inBackground(func() {
		ctx, cancel := context.WithTimeout(context.Background(), cancelNoticeTimeout)
		defer cancel()
		if err := s.callNamed(ctx, method, name, params, nil, false); err != nil {
			s.log.Debug("mcpclient: a detached request failed", "method", method, "error", err)
		}
	})
}

// inBackground runs fn on a goroutine that Close waits for (briefly),
// unless the session is closing already.
func (s *Session) inBackground(fn func()) {
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	if s.closed {
		return
	}
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		fn()
	}()
}

// moduleVersion is sent as clientInfo.version.
const moduleVersion = "0.1.0"
