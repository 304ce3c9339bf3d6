package toolreg

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/internal/stdiodial"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport"
)

// Server states, as ServerStatus reports them.
const (
	StateConnected    = "connected"
	StateFailed       = "failed"
	StateReconnecting = "reconnecting"
	StateDisabled     = "disabled"
	// StateUnapproved is a project server (mcpjson.ScopeProject) that the
	// user has not approved (its Approval is pending) or has rejected: it
	// is never started.
	StateUnapproved = "unapproved"
	StateIdle       = "idle" // not started yet (Options.Lazy)
)

// Reconnection backoff for a server whose session died: a crash-looping
// server is retried less and less often, not hammered.
const (
	firstBackoff = time.Second
	maxBackoff   = time.Minute
)

// server is one configured server and its session.
type server struct {
	r      *Registry
	cfg    *ServerConfig
	filter ToolFilter

	dialMu sync.Mutex // one connection attempt at a time

	// life ends when the server is closed: it stops a connection attempt
	// or a refresh in progress, which bg waits for.
	life    context.Context
	endLife context.CancelFunc
	bg      sync.WaitGroup

	mu          sync.Mutex
	published   bool     // visible in the registry: its hooks may run
	held        []func() // hook calls made before it was published
	session     *mcpclient.Session
	transport   string
	state       string
	lastErr     error
	failures    int
	streak      int // failures before the current session
	nextTry     time.Time
	connectedAt time.Time
	era         mcpclient.Era // the era the last session spoke (zero before one)
	closed      bool
	ended       error // why it was closed: ErrRegistryClosed, ErrRemoved

	tools     catalog[*mcpclient.Tool] // filtered
	prompts   catalog[*mcpclient.Prompt]
	resources catalog[*mcpclient.Resource]
	templates catalog[*mcpclient.ResourceTemplate]
	extLists  map[string]*catalog[any] // an extension's listings by kind (extension.go)
	reads     readCache                // what an extension read of the resources (extension.go)
}

// off reports whether the server of sc is never to start: disabled, or a
// project server the user has not approved.
func off(sc *ServerConfig) bool {
	return sc.Disabled || sc.Approval == mcpjson.Pending || sc.Approval == mcpjson.Rejected
}

// newServer makes the server of sc; published says whether it is in the
// registry already (New) or will be once it has started (Add).
func (r *Registry) newServer(sc *ServerConfig, published bool) *server {
	s := &server{r: r, cfg: sc, filter: ToolFilter{Allow: sc.Allow, Deny: sc.Deny}, state: StateFailed, published: published}
	if r.opts.Lazy {
		s.state = StateIdle
	}
	s.life, s.endLife = context.WithCancel(context.Background())
	switch {
	case sc.Disabled:
		s.state = StateDisabled
	case off(sc):
		s.state = StateUnapproved
	}
	return s
}

// connect opens the session, within the server's startup timeout if
// bounded (else within ctx alone: Registry.Reconnect).
func (s *server) connect(ctx context.Context, bounded bool) error {
	s.dialMu.Lock()
	defer s.dialMu.Unlock()
	// Callers that found the session dead queue here; the first one
	// reconnects, and the others take its session (or its failure)
	// instead of starting a server each. A closed server starts no more
	// (a Dial may start a process before it looks at ctx).
	s.mu.Lock()
	if s.closed {
		defer s.mu.Unlock()
		return s.closedError()
	}
	alive := s.state == StateConnected && s.session != nil && s.session.Err() == nil
	tried := s.state != StateConnected && s.failures > 0 && time.Now().Before(s.nextTry)
	old, lastErr := s.session, s.lastErr
	if !alive && !tried {
		s.session = nil
	}
	s.mu.Unlock()
	switch {
	case alive:
		return nil
	case tried:
		return lastErr
	}
	if old != nil {
		old.Close() // a replaced session is always closed
	}
	var cancel context.CancelFunc
	if bounded {
		ctx, cancel = context.WithTimeout(ctx, s.startupTimeout())
	} else {
		// Registry.Reconnect may wait for a person, as long as its ctx
		// lets it: the startup timeout is for servers, not people.
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	opts := s.sessionOptions()
	var dialed dialedStream
	opts.WrapStream = dialed.wrap(opts.WrapStream)
	session, err := s.dial(ctx, opts)
	if session == nil && err == nil {
		err = fmt.Errorf("the Dial option returned no session")
	}
	return s.commit(session, dialed.get(), err)
}

// dial opens a session with the registry's Dial, in the era the server
// spoke last time when that was the handshake (rememberEra).
func (s *server) dial(ctx context.Context, opts *mcpclient.Options) (*mcpclient.Session, error) {
	dialer := s.r.opts.Dial
	if dialer == nil {
		dialer = dialStdio
	}
	remembered := s.rememberEra(opts)
	session, err := dialer(ctx, s.cfg, opts)
	if err != nil && remembered && ctx.Err() == nil && !stdiodial.Exited(err) {
		// The server refused the era it spoke last time (it was
		// replaced by a newer one, say): forget it and probe.
		opts.Era = 0
		session, err = dialer(ctx, s.cfg, opts)
	}
	return session, err
}

// rememberEra pins opts to the handshake era when the server's last
// session spoke it and nothing else pins an era or a version: a
// reconnect then skips the server/discover probe, which costs a server
// that never answers it 5 s, and one that exits on it a second start (the
// 2026 spec lets a client cache the era across restarts of a server). It
// reports whether it pinned.
func (s *server) rememberEra(opts *mcpclient.Options) bool {
	s.mu.Lock()
	era := s.era
	s.mu.Unlock()
	if era != mcpclient.EraHandshake || opts.Era != 0 || opts.ProtocolVersion != "" {
		return false
	}
	opts.Era = era
	return true
}

// sessionOptions are the options of the server's next session: the
// host's, with the registry's own additions.
func (s *server) sessionOptions() *mcpclient.Options {
	var opts mcpclient.Options
	if base := s.r.opts.Session; base != nil {
		opts = *base
	}
	if v := s.cfg.ProtocolVersion; v != "" {
		opts.ProtocolVersion, opts.Era = v, 0 // the config's pin wins over the host's
	}
	if wrap := s.r.opts.WrapStream; wrap != nil {
		opts.WrapStream = func(st jsonrpc.Stream) jsonrpc.Stream { return wrap(s.cfg.Name, st) }
	}
	userChanged := opts.OnListChanged
	opts.OnListChanged = func(kind string) {
		s.markStale(kind)
		if userChanged != nil {
			userChanged(kind)
		}
	}
	return &opts
}

// dialStdio opens a stdio server's session: the Dial of a registry whose
// Options.Dial is nil.
var dialStdio = stdiodial.Dial

// dialedStream remembers the stream a session runs over, as Connect hands
// it to Options.WrapStream: it tells the status which transport the
// session took (an http server may turn out to be a legacy one). A Dial
// of the host's own may connect on another goroutine, hence the lock.
type dialedStream struct {
	mu sync.Mutex
	st jsonrpc.Stream
}

// wrap returns a WrapStream that remembers its stream, then wraps it as
// next does (nil: not at all).
func (d *dialedStream) wrap(next func(jsonrpc.Stream) jsonrpc.Stream) func(jsonrpc.Stream) jsonrpc.Stream {
	return func(st jsonrpc.Stream) jsonrpc.Stream {
		d.mu.Lock()
		d.st = st
		d.mu.Unlock()
		if next != nil {
			return next(st)
		}
		return st
	}
}

// get returns the stream remembered last, nil if none.
func (d *dialedStream) get() jsonrpc.Stream {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.st
}

// commit records the outcome of a connection attempt over stream (nil if
// none was made), then tells the hooks of it (in their turn, not now).
func (s *server) commit(session *mcpclient.Session, stream jsonrpc.Stream, err error) error {
	transport := s.cfg.Transport()
	if session != nil {
		transport = transportName(stream, transport)
	}
	s.mu.Lock()
	if s.closed {
		// Remove or Close cut it short: no failure, no session to keep.
		err := s.closedError()
		s.mu.Unlock()
		if session != nil {
			session.Close()
		}
		return err
	}
	s.transport = transport
	if err != nil {
		s.state, s.lastErr = StateFailed, startFailure(s.cfg.Name, err, s.startupTimeout())
		if need := (*NeedsAuthError)(nil); errtype.As(err, &need) {
			s.state, s.lastErr = StateNeedsAuth, need
		}
		s.failures++
		s.nextTry = time.Now().Add(min(firstBackoff<<(s.failures-1), maxBackoff))
		err := s.lastErr
		s.mu.Unlock()
		s.disconnected(err) // a failed start is news too
		return err
	}
	s.session, s.state, s.lastErr, s.era = session, StateConnected, nil, session.Era()
	s.streak, s.failures = s.failures, 0
	s.connectedAt = time.Now()
	s.tools.stale, s.prompts.stale, s.resources.stale, s.templates.stale = true, true, true, true
	s.staleExtLists()
	s.mu.Unlock()
	go s.watch(session)
	s.connected()
	return nil
}

// transportName names the transport a session runs over, for the status:
// "sse" too when a Streamable HTTP server turned out to be a legacy one
// (a stream that has a Legacy method, as the HTTP transport's has, says).
func transportName(stream jsonrpc.Stream, configured string) string {
	switch st := stream.(type) {
	case *transport.Stdio:
		return "stdio"
	case interface{ Legacy() bool }:
		if st.Legacy() {
			return "sse"
		}
		return "http"
	}
	if configured == "" {
		return "stdio"
	}
	return configured
}

// watch notices a session that ends without Close: a crashed stdio server,
// a lost connection.
func (s *server) watch(session *mcpclient.Session) {
	<-session.Done()
	s.mu.Lock()
	if s.closed || s.session != session {
		s.mu.Unlock()
		return
	}
	err := session.Err()
	s.state, s.lastErr = StateReconnecting, unavailable(s.cfg.Name, err)
	// A session that dies young (a server crashing on its first request)
	// continues the streak of failures before it, so that its backoff
	// doubles as a failed start's; one that outlived the longest starts anew.
	s.failures = 1
	if time.Since(s.connectedAt) < maxBackoff {
		s.failures = s.streak + 1
	}
	s.nextTry = time.Now().Add(min(firstBackoff<<(s.failures-1), maxBackoff))
	lastErr := s.lastErr
	s.mu.Unlock()
	s.r.log.Warn("toolreg: server disconnected", "server", s.cfg.Name, "error", err)
	s.disconnected(lastErr)
	// What the dead session holds (a process that closed its stdout and
	// runs on, an HTTP stream) goes now, not at a reconnect that may
	// never come.
	session.Close()
}

// live returns a working session, reconnecting a dead one when its backoff
// has passed.
func (s *server) live(ctx context.Context) (*mcpclient.Session, error) {
	s.mu.Lock()
	session, state, lastErr, wait := s.session, s.state, s.lastErr, s.nextTry.Sub(time.Now())
	var closed error
	if s.closed {
		closed = s.closedError()
	}
	s.mu.Unlock()
	switch {
	case closed != nil:
		return nil, closed
	case state == StateDisabled || state == StateUnapproved:
		return nil, s.offError(state)
	case state == StateConnected && session != nil:
		return session, nil
	case wait > 0:
		return nil, fmt.Errorf("%w (next attempt in %v)", lastErr, wait.Round(time.Second))
	}
	if err := s.connect(ctx, true); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil {
		return nil, &stateError{fmt.Sprintf("server %q: not connected", s.cfg.Name), ErrUnavailable, nil}
	}
	return s.session, nil
}

// start connects a server and makes its first listing of tools, both
// within its startup timeout: a server that hangs in tools/list holds its
// start no longer than one that hangs in initialize.
func (s *server) start(ctx context.Context) (listErr, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.startupTimeout())
	defer cancel()
	if err := s.connect(ctx, true); err != nil {
		return nil, err
	}
	if _, err := s.listTools(ctx); err != nil {
		if ctx.Err() != nil {
			// The listing goes on in the background (it may yet come);
			// until it does, the status says why there are no tools.
			err = fmt.Errorf("server %q: no tools listed within the startup timeout (%v): %w", s.cfg.Name, s.startupTimeout(), err)
			s.mu.Lock()
			if s.tools.err == nil && !s.tools.listed {
				s.tools.err = err
			}
			s.mu.Unlock()
		}
		s.r.log.Warn("toolreg: listing tools failed", "server", s.cfg.Name, "error", err)
		return err, nil
	}
	return nil, nil
}

// startupTimeout is the bound on starting the server.
func (s *server) startupTimeout() time.Duration {
	switch {
	case s.cfg.Timeout > 0:
		return s.cfg.Timeout
	case s.r.opts.StartupTimeout > 0:
		return s.r.opts.StartupTimeout
	}
	return 30 * time.Second
}

// close ends the session for good; reason (ErrRemoved, ErrRegistryClosed) goes to
// the OnDisconnect hook if a session was open: the event returned.
func (s *server) close(reason error) *hookEvent {
	s.mu.Lock()
	s.closed, s.ended = true, reason
	session := s.session
	live := session != nil && s.state == StateConnected
	s.mu.Unlock()
	s.endLife()
	if session != nil {
		session.Close()
	}
	s.bg.Wait() // a refresh in flight, now cut short
	if live && reason != nil {
		return s.disconnected(reason)
	}
	return nil
}
