package toolreg

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/transport/streamhttp"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// StateNeedsAuth is the state of an http or sse server that answered 401
// and could not be authorized without the user: no stored token, or one
// that no longer works. Registry.Authorize completes the flow.
const StateNeedsAuth = "needs-auth"

// ErrNeedsAuth matches (errors.Is) the error of a server in
// StateNeedsAuth, a *NeedsAuthError.
var ErrNeedsAuth = errors.New("needs authorization")

// NeedsAuthError says a server needs the user to authorize the client.
type NeedsAuthError struct {
	Server string
	// AuthServer is the authorization server's origin, when discovery
	// found it.
	AuthServer string
}

func (e *NeedsAuthError) Error() string {
	msg := fmt.Sprintf("server %q needs authorization", e.Server)
	if e.AuthServer != "" {
		msg += " at " + e.AuthServer
	}
	return msg
}

// Is makes errors.Is(err, ErrNeedsAuth) true.
func (e *NeedsAuthError) Is(target error) bool { return target == ErrNeedsAuth }

// authAttempt is one connection's authorization layer and what it found.
type authAttempt struct {
	mu         sync.Mutex
	needed     bool   // the flow reached the user step without a user
	authServer string // the authorization endpoint's origin
}

// errNoUser is what the non-interactive user step answers.
var errNoUser = errors.New("no user to authorize the client")

// authorizeLayer is the OAuth layer for sc's next connection, with the
// record of what it meets. A server whose config carries an Authorization
// header or a headersHelper gets none: its credentials are the
// configured ones.
//
// The server keeps one oauth.Authorizer across its connections, so that
// a token obtained in this process is refreshed, and a registered client
// is reused. Its user step is the one Registry.Authorize is running, if
// any; otherwise there is no user, and a server that needs one is
// reported as needing authorization. Authorize (redirectURL set) makes a
// new Authorizer, since the redirect URL is part of the client.
func (s *server) authorizeLayer(redirectURL string) (func(http.RoundTripper) http.RoundTripper, *authAttempt, error) {
	at := &authAttempt{}
	if hasConfiguredCredentials(s.cfg) {
		return nil, at, nil
	}
	store := s.r.tokenStore() // before s.mu: it takes the registry's lock
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempt = at
	if s.auth != nil && redirectURL == "" {
		return s.auth.RoundTripper, at, nil
	}
	if redirectURL == "" {
		redirectURL = "http://127.0.0.1/callback"
		if o := s.cfg.OAuth; o != nil && o.CallbackPort > 0 {
			redirectURL = "http://127.0.0.1:" + strconv.Itoa(o.CallbackPort) + "/callback"
		}
	}
	step := oauth.UserStepFunc(func(ctx context.Context, authURL *url.URL) (*url.URL, error) {
		s.mu.Lock()
		user, at := s.step, s.attempt
		s.mu.Unlock()
		if user != nil {
			return user.Authorize(ctx, authURL)
		}
		if at != nil {
			at.mu.Lock()
			at.needed, at.authServer = true, authURL.Scheme+"://"+authURL.Host
			at.mu.Unlock()
		}
		return nil, errNoUser
	})
	cfg := oauth.Config{ServerURL: s.cfg.URL, RedirectURL: redirectURL, UserStep: step, Store: store, Logger: s.r.opts.Logger}
	if o := s.cfg.OAuth; o != nil {
		cfg.ClientID, cfg.Scopes, cfg.ServerMetadataURL = o.ClientID, o.Scopes, o.AuthServerMetadataURL
	}
	a, err := oauth.New(cfg)
	if err != nil {
		return nil, at, err
	}
	s.auth = a
	return a.RoundTripper, at, nil
}

// needsAuth turns a failed connection's error into a *NeedsAuthError if
// it came of a 401 the client could not answer without the user.
func (at *authAttempt) needsAuth(name string, err error) error {
	at.mu.Lock()
	needed, origin := at.needed, at.authServer
	at.mu.Unlock()
	var he *streamhttp.HTTPError
	if needed || (errors.As(err, &he) && he.StatusCode == http.StatusUnauthorized) {
		return &NeedsAuthError{Server: name, AuthServer: origin}
	}
	return nil
}

// hasConfiguredCredentials reports whether sc's config gives its
// credentials: an Authorization header or a headersHelper.
func hasConfiguredCredentials(sc *ServerConfig) bool {
	for k := range sc.Headers {
		if strings.EqualFold(k, "Authorization") {
			return true
		}
	}
	return sc.HeadersHelper != ""
}

// tokenStore is the store of the OAuth tokens: Options.TokenStore, else
// one in memory for the registry's life.
func (r *Registry) tokenStore() oauth.TokenStore {
	if r.opts.TokenStore != nil {
		return r.opts.TokenStore
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.memTokens == nil {
		r.memTokens = &oauth.MemoryStore{}
	}
	return r.memTokens
}

// Authorize runs the OAuth authorization of the named http or sse server
// with the user step given (which opens the URL and returns the redirect
// to redirectURL), stores the tokens in Options.TokenStore, and connects
// the server. ctx bounds the whole, the user's part included (the
// server's startup timeout does not). A server in StateNeedsAuth is the usual one to authorize;
// a connected one is reconnected.
func (r *Registry) Authorize(ctx context.Context, name string, step oauth.UserStep, redirectURL string) error {
	if step == nil || redirectURL == "" {
		return errors.New("toolreg: Authorize needs a user step and its redirect URL")
	}
	r.mu.Lock()
	s := r.servers[name]
	r.mu.Unlock()
	if s == nil {
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	if s.cfg.Type != "http" && s.cfg.Type != "sse" {
		return fmt.Errorf("toolreg: server %q is not an http or sse server", name)
	}
	if hasConfiguredCredentials(s.cfg) {
		return fmt.Errorf("toolreg: server %q takes its credentials from its config (Authorization header or headersHelper), not OAuth", name)
	}
	s.mu.Lock()
	if s.state == StateDisabled {
		s.mu.Unlock()
		return fmt.Errorf("server %q is disabled", name)
	}
	s.step, s.redirectURL = step, redirectURL
	s.failures, s.nextTry = 0, time.Time{} // try now
	if s.state == StateConnected {
		s.state = StateReconnecting // connect dials anew
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.step, s.redirectURL = nil, ""
		s.mu.Unlock()
	}()
	return s.connect(ctx)
}
