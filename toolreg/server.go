package toolreg

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// Server states, as ServerStatus reports them.
const (
	StateConnected    = "connected"
	StateFailed       = "failed"
	StateReconnecting = "reconnecting"
	StateDisabled     = "disabled"
	StateIdle         = "idle" // not started yet (Options.Lazy)
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
	session     *mcpclient.Session
	transport   string
	state       string
	lastErr     error
	failures    int
	nextTry     time.Time
	connectedAt time.Time
	closed      bool
	step        oauth.UserStep // for the next connection, from Registry.Authorize
	redirectURL string
	auth        *oauth.Authorizer // the OAuth client, kept across connections
	attempt     *authAttempt      // what the current connection's OAuth met

	tools     catalog[*mcpclient.Tool] // filtered
	prompts   catalog[*mcpclient.Prompt]
	resources catalog[*mcpclient.Resource]
	templates catalog[*mcpclient.ResourceTemplate]
	skills    catalog[*mcpclient.Skill]

	uis   map[string]*uiEntry // interfaces read, by ui:// URI (ui.go)
	uiGen int                 // counts the times uis was emptied
}

func (r *Registry) newServer(sc *ServerConfig) *server {
	s := &server{r: r, cfg: sc, filter: ToolFilter{Allow: sc.Allow, Deny: sc.Deny}, state: StateFailed}
	if r.opts.Lazy {
		s.state = StateIdle
	}
	s.life, s.endLife = context.WithCancel(context.Background())
	if sc.Disabled {
		s.state = StateDisabled
	}
	return s
}

// connect opens the session, within the server's startup timeout.
func (s *server) connect(ctx context.Context) error {
	s.dialMu.Lock()
	defer s.dialMu.Unlock()
	// Callers that found the session dead queue here; the first one
	// reconnects, and the others take its session (or its failure)
	// instead of starting a server each.
	s.mu.Lock()
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
	s.mu.Lock()
	interactive := s.step != nil
	s.mu.Unlock()
	var cancel context.CancelFunc
	if interactive {
		// Registry.Authorize waits for the user, as long as its ctx lets
		// it: the startup timeout is for servers, not people.
		ctx, cancel = context.WithCancel(ctx)
	} else {
		ctx, cancel = context.WithTimeout(ctx, s.startupTimeout())
	}
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	var opts mcpclient.Options
	if base := s.r.opts.Session; base != nil {
		opts = *base
	}
	opts.Skills = true // the registry lists and loads skills
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
	var session *mcpclient.Session
	var transport string
	var err error
	if dialer := s.r.opts.Dial; dialer != nil {
		session, err = dialer(ctx, s.cfg, &opts)
		transport = s.cfg.Type
		if session == nil && err == nil {
			err = fmt.Errorf("the Dial option returned no session")
		}
		if session != nil {
			transport = transportName(session.Stream(), transport)
		}
	} else {
		var layer func(http.RoundTripper) http.RoundTripper
		at := &authAttempt{}
		if s.cfg.Type == "http" || s.cfg.Type == "sse" {
			s.mu.Lock()
			redirect := s.redirectURL
			s.mu.Unlock()
			layer, at, err = s.authorizeLayer(redirect)
		}
		if err == nil {
			session, transport, err = dial(ctx, s.cfg, &opts, layer)
		}
		if err != nil {
			if need := at.needsAuth(s.cfg.Name, err); need != nil {
				err = need
			}
		}
	}
	s.mu.Lock()
	s.transport = transport
	if need := (*NeedsAuthError)(nil); errors.As(err, &need) {
		s.state, s.lastErr = StateNeedsAuth, need
		s.failures++
		s.nextTry = time.Now().Add(min(firstBackoff<<(s.failures-1), maxBackoff))
		s.mu.Unlock()
		s.disconnected(need)
		return need
	}
	if err != nil {
		s.state, s.lastErr = StateFailed, startFailure(s.cfg.Name, err, s.startupTimeout())
		s.failures++
		s.nextTry = time.Now().Add(min(firstBackoff<<(s.failures-1), maxBackoff))
		err := s.lastErr
		s.mu.Unlock()
		s.disconnected(err) // a failed start is news too
		return err
	}
	if s.closed {
		s.mu.Unlock()
		session.Close()
		return fmt.Errorf("server %q: removed while connecting", s.cfg.Name)
	}
	s.session, s.state, s.lastErr, s.failures = session, StateConnected, nil, 0
	s.connectedAt = time.Now()
	s.tools.stale, s.prompts.stale, s.resources.stale, s.templates.stale, s.skills.stale = true, true, true, true, true
	s.forgetUIs()
	s.mu.Unlock()
	go s.watch(session)
	if s.r.opts.OnConnect != nil {
		// The hook hears of a server ready for use: listed, with counts.
		s.listTools(ctx)
		s.listPrompts(ctx)
		s.listResources(ctx)
		st := s.status()
		// Hooks run with no lock held: they may call the registry.
		s.r.hook("OnConnect", func() { s.r.opts.OnConnect(st) })
	}
	return nil
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
	s.state, s.lastErr = StateReconnecting, fmt.Errorf("server %q: %w", s.cfg.Name, err)
	s.failures++
	s.nextTry = time.Now().Add(min(firstBackoff<<(s.failures-1), maxBackoff))
	s.mu.Unlock()
	s.r.log.Warn("toolreg: server disconnected", "server", s.cfg.Name, "error", err)
	s.disconnected(s.lastErrLocked())
}

func (s *server) lastErrLocked() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// disconnected tells the OnDisconnect hook, with no lock held.
func (s *server) disconnected(reason error) {
	if s.r.opts.OnDisconnect != nil {
		s.r.hook("OnDisconnect", func() { s.r.opts.OnDisconnect(s.cfg.Name, reason) })
	}
}

// live returns a working session, reconnecting a dead one when its backoff
// has passed.
func (s *server) live(ctx context.Context) (*mcpclient.Session, error) {
	s.mu.Lock()
	session, state, lastErr, wait := s.session, s.state, s.lastErr, time.Until(s.nextTry)
	closed := s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return nil, fmt.Errorf("server %q: removed", s.cfg.Name)
	case state == StateDisabled:
		return nil, fmt.Errorf("server %q is disabled", s.cfg.Name)
	case state == StateConnected && session != nil:
		return session, nil
	case wait > 0:
		return nil, fmt.Errorf("%w (next attempt in %v)", lastErr, wait.Round(time.Second))
	}
	if err := s.connect(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil {
		return nil, fmt.Errorf("server %q: not connected", s.cfg.Name)
	}
	return s.session, nil
}

// start connects a server and makes its first listing of tools, both
// within its startup timeout: a server that hangs in tools/list holds its
// start no longer than one that hangs in initialize.
func (s *server) start(ctx context.Context) (listErr, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.startupTimeout())
	defer cancel()
	if err := s.connect(ctx); err != nil {
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

// markStale makes the next listing of kind ("tools", "prompts" or
// "resources", as in notifications/<kind>/list_changed) ask the server again.
func (s *server) markStale(kind string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case "tools":
		s.tools.stale = true
	case "prompts":
		s.prompts.stale = true
	case "resources": // templates and skills, all resources, have no notification of their own
		s.resources.stale, s.templates.stale, s.skills.stale = true, true, true
		s.forgetUIs()
	}
}

// listTools returns the server's tools that its filter permits.
func (s *server) listTools(ctx context.Context) ([]*mcpclient.Tool, error) {
	return cachedList(ctx, s, &s.tools, func(ctx context.Context, session *mcpclient.Session) ([]*mcpclient.Tool, error) {
		tools, err := collect(s, "tools", nil, (*mcpclient.Session).Tools)(ctx, session)
		if tools == nil {
			return nil, err
		}
		kept := make([]*mcpclient.Tool, 0, len(tools))
		for _, t := range tools {
			if s.filter.Permits(t.Name) {
				kept = append(kept, t)
			}
		}
		return kept, err // err: the listing stopped at the page cap
	})
}

func offersPrompts(c mcpclient.ServerCapabilities) bool   { return c.Prompts != nil }
func offersResources(c mcpclient.ServerCapabilities) bool { return c.Resources != nil }

// listPrompts returns the server's prompts; none if it offers none.
func (s *server) listPrompts(ctx context.Context) ([]*mcpclient.Prompt, error) {
	return cachedList(ctx, s, &s.prompts, collect(s, "prompts", offersPrompts, (*mcpclient.Session).Prompts))
}

// listResources returns the server's resources; none if it offers none.
func (s *server) listResources(ctx context.Context) ([]*mcpclient.Resource, error) {
	return cachedList(ctx, s, &s.resources, collect(s, "resources", offersResources, (*mcpclient.Session).Resources))
}

// listTemplates returns the server's resource templates; none if it
// offers no resources.
func (s *server) listTemplates(ctx context.Context) ([]*mcpclient.ResourceTemplate, error) {
	return cachedList(ctx, s, &s.templates,
		collect(s, "resource templates", offersResources, (*mcpclient.Session).ResourceTemplates))
}

func offersSkills(c mcpclient.ServerCapabilities) bool {
	return c.HasExtension(mcpclient.SkillsExtension)
}

// listSkills returns the server's skills; none if it does not declare the
// skills extension.
func (s *server) listSkills(ctx context.Context) ([]*mcpclient.Skill, error) {
	return cachedList(ctx, s, &s.skills, collect(s, "skills", offersSkills, (*mcpclient.Session).Skills))
}

// close ends the session for good; reason (ErrRemoved, ErrClosed) goes to
// the OnDisconnect hook if a session was open.
func (s *server) close(reason error) {
	s.mu.Lock()
	s.closed = true
	session := s.session
	live := session != nil && s.state == StateConnected
	s.mu.Unlock()
	s.endLife()
	if session != nil {
		session.Close()
	}
	s.bg.Wait() // a refresh in flight, now cut short
	if live && reason != nil {
		s.disconnected(reason)
	}
}

// startError says in one sentence why a server did not start — it exited,
// or it did not answer in time — rather than which protocol request was
// on the wire when that happened. The cause stays reachable (errors.As).
type startError struct {
	msg string
	err error
}

func (e *startError) Error() string { return e.msg }
func (e *startError) Unwrap() error { return e.err }

func startFailure(name string, err error, timeout time.Duration) error {
	var exit *transport.ExitError
	switch {
	case errors.As(err, &exit):
		// "server exited with status 2: <stderr>" becomes
		// `server "x" exited with status 2: <stderr>`.
		return &startError{fmt.Sprintf("server %q %s", name, strings.TrimPrefix(exit.Error(), "server ")), err}
	case errors.Is(err, context.DeadlineExceeded):
		return &startError{fmt.Sprintf("server %q did not answer within %v", name, timeout), err}
	}
	return fmt.Errorf("server %q: %w", name, err)
}
