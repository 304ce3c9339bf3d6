package toolreg

import (
	"context"
	"fmt"
	"sync"
	"time"

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

	mu        sync.Mutex
	session   *mcpclient.Session
	transport string
	state     string
	lastErr   error
	failures  int
	nextTry   time.Time
	closed    bool
	tools     []*mcpclient.Tool // the last listing, filtered; nil until listed
	stale     bool
	flight    *listing // the listing in progress, if any
}

// listing is one tools/list in flight, shared by every caller that wants
// it (single flight).
type listing struct {
	done  chan struct{}
	tools []*mcpclient.Tool
	err   error
}

func (r *Registry) newServer(sc *ServerConfig) *server {
	s := &server{r: r, cfg: sc, filter: ToolFilter{Allow: sc.Allow, Deny: sc.Deny}, state: StateFailed}
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
	var opts mcpclient.Options
	if base := s.r.opts.Session; base != nil {
		opts = *base
	}
	userChanged := opts.OnListChanged
	opts.OnListChanged = func(kind string) {
		if kind == "tools" {
			s.markStale()
		}
		if userChanged != nil {
			userChanged(kind)
		}
	}
	session, transport, err := dial(ctx, s.cfg, &opts)
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
	s.stale = true
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

// markStale makes the next listing ask the server again.
func (s *server) markStale() {
	s.mu.Lock()
	s.stale = true
	s.mu.Unlock()
}

// listTools returns the server's tools, filtered: the cached listing while
// it is fresh, else one tools/list shared by all concurrent callers.
func (s *server) listTools(ctx context.Context) ([]*mcpclient.Tool, error) {
	s.mu.Lock()
	if s.tools != nil && !s.stale && s.state == StateConnected {
		t := s.tools
		s.mu.Unlock()
		return t, nil
	}
	f := s.flight
	if f == nil {
		f = &listing{done: make(chan struct{})}
		s.flight = f
		s.stale = false // a change during the listing marks it again
		s.mu.Unlock()
		f.tools, f.err = s.fetchTools(ctx)
		s.mu.Lock()
		if f.err == nil {
			s.tools = f.tools
		} else {
			s.stale = true
		}
		s.flight = nil
		s.mu.Unlock()
		close(f.done)
		return f.tools, f.err
	}
	s.mu.Unlock()
	select {
	case <-f.done:
		return f.tools, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *server) fetchTools(ctx context.Context) ([]*mcpclient.Tool, error) {
	session, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	all, err := mcpclient.Collect(session.Tools(ctx))
	if err != nil {
		return nil, fmt.Errorf("server %q: listing tools: %w", s.cfg.Name, err)
	}
	kept := all[:0]
	for _, t := range all {
		if s.filter.Permits(t.Name) {
			kept = append(kept, t)
		}
	}
	return kept, nil
}

// close ends the session for good.
func (s *server) close() {
	s.mu.Lock()
	s.closed = true
	session := s.session
	s.mu.Unlock()
	if session != nil {
		session.Close()
	}
}
