package webui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Auth is the host's OAuth, for a server on the page that answered 401
// and cannot be authorized without the person (toolreg.StateNeedsAuth),
// one whose call was refused for want of scope (403 insufficient_scope),
// and one the person logs out of. Its methods may be called concurrently.
type Auth interface {
	// Login authorizes server the way the host's own login does, and
	// connects it; with stepUp, for the scope the server's last refusal
	// asked for besides the token's (see StepUpScope). It calls show with
	// the authorization URL, which the page offers the person as a link;
	// an error from show ends the flow with that error. It returns once
	// the flow has ended (the redirect came back to the host's listener,
	// or was refused) or ctx has.
	Login(ctx context.Context, server string, stepUp bool, show func(authURL string) error) error
	// StepUpScope reports whether err, a call's failure at server, is a
	// refusal for want of scope that a login with stepUp may answer, and
	// the scope the server named.
	StepUpScope(server string, err error) (scope string, ok bool)
	// LoggedIn reports whether the host holds tokens of server's, which
	// Logout would forget.
	LoggedIn(ctx context.Context, server string) bool
	// Logout forgets server's tokens the way the host's own logout does:
	// it revokes them where the authorization server can (a failure
	// there is reported in LoggedOut, not as an error) and deletes them,
	// so that the server's next connection has none.
	Logout(ctx context.Context, server string) (LoggedOut, error)
}

// loginLimit bounds one login from the page: the person's time to
// authorize in the other tab included.
const loginLimit = 10 * time.Minute

// loginWait bounds how long a POST /login waits for the authorization
// URL before it answers with the login's state as it is.
const loginWait = 30 * time.Second

// loginState is one server's login from the page, as the page sees it.
// Neither a token nor anything of one is in it: only the authorization
// URL the person opens, and the flow's outcome.
type loginState struct {
	State string `json:"state"`         // starting, waiting (for the person), done, failed
	URL   string `json:"url,omitempty"` // the authorization URL, while waiting
	Error string `json:"error,omitempty"`
}

// pending is a login under way, or the last one, of one server.
type pending struct {
	st    loginState
	ready chan struct{} // closed once the URL is known or the flow has ended
	once  sync.Once
}

func (p *pending) signal() { p.once.Do(func() { close(p.ready) }) }

// logins are the page's logins, one at a time per server. Close ends
// those under way and waits for them.
type logins struct {
	mu   sync.Mutex
	m    map[string]*pending
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
}

func newLogins() *logins {
	ctx, stop := context.WithCancel(context.Background())
	return &logins{m: map[string]*pending{}, ctx: ctx, stop: stop}
}

func (l *logins) close() {
	l.stop()
	l.wg.Wait()
}

// state is server's login as it is now.
func (l *logins) state(server string) (loginState, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.m[server]
	if p == nil {
		return loginState{State: "none"}, false
	}
	return p.st, true
}

// start begins server's login with auth, unless one is under way, and
// returns it.
func (l *logins) start(auth Auth, server string, stepUp bool) *pending {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p := l.m[server]; p != nil && (p.st.State == "starting" || p.st.State == "waiting") {
		return p
	}
	p := &pending{st: loginState{State: "starting"}, ready: make(chan struct{})}
	l.m[server] = p
	if l.ctx.Err() != nil { // closed: no new flow
		p.st = loginState{State: "failed", Error: "the page is closing"}
		p.signal()
		return p
	}
	l.wg.Add(1)
	go l.run(auth, server, stepUp, p)
	return p
}

// run is one login's flow, detached from the request that started it:
// the person authorizes in another tab, after that request has answered.
func (l *logins) run(auth Auth, server string, stepUp bool, p *pending) {
	defer l.wg.Done()
	defer p.signal()
	ctx, cancel := context.WithTimeout(l.ctx, loginLimit)
	defer cancel()
	err := auth.Login(ctx, server, stepUp, func(authURL string) error {
		// The authorization server, and with it this URL, is the MCP
		// server's choice: the page links only to https, or http on
		// loopback, never to javascript: or a custom scheme.
		if _, err := safeurl.Parse("the authorization URL", authURL); err != nil {
			return err
		}
		l.mu.Lock()
		p.st = loginState{State: "waiting", URL: authURL}
		l.mu.Unlock()
		p.signal()
		return nil
	})
	st := loginState{State: "done"}
	if err != nil {
		st = loginState{State: "failed", Error: err.Error()}
	}
	l.mu.Lock()
	p.st = st
	l.mu.Unlock()
}

// forget drops server's last login, once the person has logged out:
// the page must not show it as logged in. A login under way is kept.
func (l *logins) forget(server string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p := l.m[server]; p != nil && p.st.State != "starting" && p.st.State != "waiting" {
		delete(l.m, server)
	}
}

// apiLogin starts the named server's login (POST /login {"server": …},
// with "stepUp": true for the scope its last refusal asked for) and answers with its state once the authorization URL is known, the
// flow has ended, or loginWait has passed.
func (s *Server) apiLogin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Server string `json:"server"`
		StepUp bool   `json:"stepUp"`
	}
	if !readBody(w, r, &req) || !s.canAuth(w, req.Server) {
		return
	}
	p := s.logins.start(s.opts.Auth, req.Server, req.StepUp)
	t := time.NewTimer(loginWait)
	defer t.Stop()
	select {
	case <-p.ready:
	case <-t.C:
	case <-r.Context().Done():
		return
	}
	st, _ := s.logins.state(req.Server)
	writeJSON(w, http.StatusOK, st)
}

// apiLoginState answers GET /login?server=… with that server's login.
func (s *Server) apiLoginState(w http.ResponseWriter, r *http.Request) {
	st, _ := s.logins.state(r.URL.Query().Get("server"))
	writeJSON(w, http.StatusOK, st)
}

// canAuth reports whether the page can log in to or out of server, and
// answers the request with why not when it cannot.
func (s *Server) canAuth(w http.ResponseWriter, server string) bool {
	if s.opts.Auth == nil {
		writeErr(w, http.StatusNotImplemented, errors.New("this page cannot log in to servers"))
		return false
	}
	if !s.known(server) {
		writeErr(w, http.StatusNotFound, fmt.Errorf("%w: %q", toolreg.ErrUnknownServer, server))
		return false
	}
	return true
}

// known reports whether the registry has a server of that name.
func (s *Server) known(name string) bool {
	for _, st := range s.opts.Registry.Servers() {
		if st.Name == name {
			return true
		}
	}
	return false
}
