package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// serverAuth is what the Dialer keeps of one server's authorization.
type serverAuth struct {
	auth *oauth.Authorizer // the OAuth client, kept across connections
}

// authAttempt is one connection's authorization layer.
type authAttempt struct {
	auth *oauth.Authorizer
}

// authorizer is sc's OAuth client, made on first use. It has no user
// step: a connection never waits for a person. A server that needs one
// answers 401, is reported as needing authorization, and Login runs the
// flow apart from any connection. One Authorizer per server means a
// token obtained in this process is refreshed, a registered client is
// reused, and at most one renewal runs at a time.
func (d *Dialer) authorizer(sc *toolreg.ServerConfig) (*oauth.Authorizer, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	key := sc.Name + "\x00" + sc.URL
	if d.servers == nil {
		d.servers = map[string]*serverAuth{}
	}
	if sa := d.servers[key]; sa != nil {
		return sa.auth, nil
	}
	redirectURL := "http://127.0.0.1/callback"
	if o := sc.OAuth; o != nil && o.CallbackPort > 0 {
		redirectURL = "http://127.0.0.1:" + strconv.Itoa(o.CallbackPort) + "/callback"
	}
	cfg := oauth.Config{ServerURL: sc.URL, RedirectURL: redirectURL, Store: d.tokenStore(), Logger: d.Logger}
	if o := sc.OAuth; o != nil {
		cfg.ClientID, cfg.Scopes, cfg.ServerMetadataURL = o.ClientID, o.Scopes, o.AuthServerMetadataURL
		cfg.ClientSecret = o.ClientSecret
	}
	a, err := oauth.New(cfg)
	if err != nil {
		return nil, err
	}
	d.servers[key] = &serverAuth{auth: a}
	return a, nil
}

// authorizeLayer is the OAuth layer for sc's next connection.
func (d *Dialer) authorizeLayer(sc *toolreg.ServerConfig) (func(http.RoundTripper) http.RoundTripper, *authAttempt, error) {
	a, err := d.authorizer(sc)
	if err != nil {
		return nil, nil, err
	}
	return a.RoundTripper, &authAttempt{auth: a}, nil
}

// needsAuth turns a failed connection's error into a
// *toolreg.NeedsAuthError if it came of a 401 the client could not answer
// without the user. at is nil for a server with configured credentials.
func (at *authAttempt) needsAuth(name string, err error) error {
	var he *streamhttp.HTTPError
	if !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized {
		return nil
	}
	ne := &toolreg.NeedsAuthError{Server: name}
	if at != nil {
		ne.AuthServer = at.auth.AuthServer()
	}
	return ne
}

// hasConfiguredCredentials reports whether sc's config gives its
// credentials: an Authorization header or a headersHelper.
func hasConfiguredCredentials(sc *toolreg.ServerConfig) bool {
	for k := range sc.Headers {
		if strings.EqualFold(k, "Authorization") {
			return true
		}
	}
	return !sc.HeadersHelper.IsZero()
}

// tokenStore is TokenStore, else one in memory for the Dialer's life;
// d.mu is held.
func (d *Dialer) tokenStore() oauth.TokenStore {
	if d.TokenStore != nil {
		return d.TokenStore
	}
	if d.mem == nil {
		d.mem = &oauth.MemoryStore{}
	}
	return d.mem
}

// Authorize runs the OAuth authorization of the http or sse server sc,
// one of reg's, dialed by d, with the user step given (which opens the
// URL and returns the redirect to redirectURL): Login with those options.
func (d *Dialer) Authorize(ctx context.Context, reg *toolreg.Registry, sc *toolreg.ServerConfig, step oauth.UserStep, redirectURL string) error {
	if step == nil || redirectURL == "" {
		return errors.New("remote: Authorize needs a user step and its redirect URL")
	}
	return d.Login(ctx, reg, sc, &oauth.LoginOptions{UserStep: step, RedirectURL: redirectURL})
}

// Login authorizes the http or sse server sc, one of reg's, dialed by d,
// with the user step of opts, apart from any connection
// (oauth.Authorizer.Login: the user's time is bounded by the user step's
// own limit, Config.UserStepTimeout, not by the server's startup timeout
// nor by a request's), stores the tokens in TokenStore, and connects the
// server (toolreg.Registry.Reconnect). A stored token that works is kept
// unless opts.Force; one the server then refuses is replaced.
func (d *Dialer) Login(ctx context.Context, reg *toolreg.Registry, sc *toolreg.ServerConfig, opts *oauth.LoginOptions) error {
	if t := sc.Transport(); t != "http" && t != "sse" {
		return fmt.Errorf("remote: server %q is not an http or sse server", sc.Name)
	}
	if hasConfiguredCredentials(sc) {
		return fmt.Errorf("remote: server %q takes its credentials from its config (Authorization header or headersHelper), not OAuth", sc.Name)
	}
	a, err := d.authorizer(sc)
	if err != nil {
		return err
	}
	o := oauth.LoginOptions{}
	if opts != nil {
		o = *opts
	}
	if err := a.Login(ctx, &o); err != nil {
		return err
	}
	err = reg.Reconnect(ctx, sc.Name)
	if !errors.Is(err, toolreg.ErrNeedsAuth) || o.Force {
		return err
	}
	// The stored token looked valid, and the server refused it.
	o.Force = true
	if err := a.Login(ctx, &o); err != nil {
		return err
	}
	return reg.Reconnect(ctx, sc.Name)
}

// StepUpScope reports whether sc's server last refused a request with
// 403 insufficient_scope, and the scope it named (oauth's
// Authorizer.StepUpScope); Login then asks for it.
func (d *Dialer) StepUpScope(sc *toolreg.ServerConfig) (scope string, ok bool) {
	d.mu.Lock()
	sa := d.servers[sc.Name+"\x00"+sc.URL]
	d.mu.Unlock()
	if sa == nil {
		return "", false
	}
	return sa.auth.StepUpScope()
}
