package toolreg

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// Server states, as ServerStatus reports them.
const (
	StateConnected    = "connected"
	StateFailed       = "failed"
	StateReconnecting = "reconnecting"
	StateDisabled     = "disabled"
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

	mu        sync.Mutex
	session   *mcpclient.Session
	transport string
	state     string
	lastErr   error
	failures  int
	nextTry   time.Time
	closed    bool

	tools     catalog[*mcpclient.Tool] // filtered
	prompts   catalog[*mcpclient.Prompt]
	resources catalog[*mcpclient.Resource]
	templates catalog[*mcpclient.ResourceTemplate]
	skills    catalog[*mcpclient.Skill]
}

func (r *Registry) newServer(sc *ServerConfig) *server {
	s := &server{r: r, cfg: sc, filter: ToolFilter{Allow: sc.Allow, Deny: sc.Deny}, state: StateFailed}
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
	timeout := s.cfg.Timeout
	if timeout <= 0 {
		timeout = s.r.opts.StartupTimeout
	}
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	var opts mcpclient.Options
	if base := s.r.opts.Session; base != nil {
		opts = *base
	}
	opts.Skills = true // the registry lists and loads skills
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
		session, transport, err = dial(ctx, s.cfg, &opts)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transport = transport
	if err != nil {
		s.state, s.lastErr = StateFailed, fmt.Errorf("server %q: %w", s.cfg.Name, err)
		s.failures++
		s.nextTry = time.Now().Add(min(firstBackoff<<(s.failures-1), maxBackoff))
		return s.lastErr
	}
	if s.closed {
		go session.Close()
		return fmt.Errorf("server %q: removed while connecting", s.cfg.Name)
	}
	s.session, s.state, s.lastErr, s.failures = session, StateConnected, nil, 0
	s.tools.stale, s.prompts.stale, s.resources.stale, s.templates.stale, s.skills.stale = true, true, true, true, true
	go s.watch(session)
	s.r.hook("OnConnect", func() {
		if s.r.opts.OnConnect != nil {
			s.r.opts.OnConnect(s.cfg.Name)
		}
	})
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
	s.r.hook("OnDisconnect", func() {
		if s.r.opts.OnDisconnect != nil {
			s.r.opts.OnDisconnect(s.cfg.Name, err)
		}
	})
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
	if session != nil {
		session.Close()
	}
	if err := s.connect(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session, nil
}

// prefetch lists the tools of a server that just connected. A failure is
// logged and left to the next listing to retry.
func (s *server) prefetch(ctx context.Context) {
	if _, err := s.listTools(ctx); err != nil {
		s.r.log.Warn("toolreg: listing tools failed", "server", s.cfg.Name, "error", err)
	}
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
	}
}

// listTools returns the server's tools that its filter permits.
func (s *server) listTools(ctx context.Context) ([]*mcpclient.Tool, error) {
	return cachedList(ctx, s, &s.tools, func(ctx context.Context, session *mcpclient.Session) ([]*mcpclient.Tool, error) {
		tools, err := collect(s, "tools", nil, (*mcpclient.Session).Tools)(ctx, session)
		if err != nil {
			return nil, err
		}
		kept := make([]*mcpclient.Tool, 0, len(tools))
		for _, t := range tools {
			if s.filter.Permits(t.Name) {
				kept = append(kept, t)
			}
		}
		return kept, nil
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

// close ends the session for good.
func (s *server) close() {
	s.mu.Lock()
	s.closed = true
	session := s.session
	s.mu.Unlock()
	s.endLife()
	if session != nil {
		session.Close()
	}
	s.bg.Wait() // a refresh in flight, now cut short
}
