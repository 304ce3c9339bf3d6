package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// serverAuth is what the Dialer keeps of one server's authorization.
type serverAuth struct {
	auth        *oauth.Authorizer // the OAuth client, kept across connections
	step        oauth.UserStep    // for the next connection, from Authorize
	redirectURL string
	attempt     *authAttempt // what the current connection's OAuth met
}

// authAttempt is one connection's authorization layer and what it found.
type authAttempt struct {
	mu         sync.Mutex
	needed     bool   // the flow reached the user step without a user
	authServer string // the authorization endpoint's origin
}

// errNoUser is what the non-interactive user step answers.
var errNoUser = errors.New("no user to authorize the client")

// state is the record of sc's server, made on first use.
func (d *Dialer) state(sc *toolreg.ServerConfig) *serverAuth {
	key := sc.Name + "\x00" + sc.URL
	if d.servers == nil {
		d.servers = map[string]*serverAuth{}
	}
	sa := d.servers[key]
	if sa == nil {
		sa = &serverAuth{}
		d.servers[key] = sa
	}
	return sa
}

// authorizeLayer is the OAuth layer for sc's next connection, with the
// record of what it meets.
//
// The Dialer keeps one oauth.Authorizer per server across its
// connections, so that a token obtained in this process is refreshed, and
// a registered client is reused. Its user step is the one Authorize is
// running, if any; otherwise there is no user, and a server that needs
// one is reported as needing authorization. Authorize (redirectURL set)
// makes a new Authorizer, since the redirect URL is part of the client.
func (d *Dialer) authorizeLayer(sc *toolreg.ServerConfig) (func(http.RoundTripper) http.RoundTripper, *authAttempt, error) {
	at := &authAttempt{}
	d.mu.Lock()
	defer d.mu.Unlock()
	sa := d.state(sc)
	sa.attempt = at
	redirectURL := sa.redirectURL
	if sa.auth != nil && redirectURL == "" {
		return sa.auth.RoundTripper, at, nil
	}
	if redirectURL == "" {
		redirectURL = "http://127.0.0.1/callback"
		if o := sc.OAuth; o != nil && o.CallbackPort > 0 {
			redirectURL = "http://127.0.0.1:" + strconv.Itoa(o.CallbackPort) + "/callback"
		}
	}
	step := oauth.UserStepFunc(func(ctx context.Context, authURL *url.URL) (*url.URL, error) {
		d.mu.Lock()
		user, at := sa.step, sa.attempt
		d.mu.Unlock()
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
	cfg := oauth.Config{ServerURL: sc.URL, RedirectURL: redirectURL, UserStep: step, Store: d.tokenStore(), Logger: d.Logger}
	if o := sc.OAuth; o != nil {
		cfg.ClientID, cfg.Scopes, cfg.ServerMetadataURL = o.ClientID, o.Scopes, o.AuthServerMetadataURL
	}
	a, err := oauth.New(cfg)
	if err != nil {
		return nil, at, err
	}
	sa.auth = a
	return a.RoundTripper, at, nil
}

// needsAuth turns a failed connection's error into a
// *toolreg.NeedsAuthError if it came of a 401 the client could not answer
// without the user. at is nil for a server with configured credentials.
func (at *authAttempt) needsAuth(name string, err error) error {
	var needed bool
	var origin string
	if at != nil {
		at.mu.Lock()
		needed, origin = at.needed, at.authServer
		at.mu.Unlock()
	}
	var he *streamhttp.HTTPError
	if needed || (errors.As(err, &he) && he.StatusCode == http.StatusUnauthorized) {
		return &toolreg.NeedsAuthError{Server: name, AuthServer: origin}
	}
	return nil
}

// hasConfiguredCredentials reports whether sc's config gives its
// credentials: an Authorization header or a headersHelper.
func hasConfiguredCredentials(sc *toolreg.ServerConfig) bool {
	for k := range sc.Headers {
		if strings.EqualFold(k, "Authorization") {
			return true
		}
	}
	return sc.HeadersHelper != ""
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
// one of reg's, dialed by d: with the user step given (which opens the
// URL and returns the redirect to redirectURL), it stores the tokens in
// TokenStore and connects the server (toolreg.Registry.Reconnect). ctx
// bounds the whole, the user's part included; the server's startup
// timeout does not. A server in toolreg.StateNeedsAuth is the usual one
// to authorize; a connected one is reconnected.
func (d *Dialer) Authorize(ctx context.Context, reg *toolreg.Registry, sc *toolreg.ServerConfig, step oauth.UserStep, redirectURL string) error {
	if step == nil || redirectURL == "" {
		return errors.New("remote: Authorize needs a user step and its redirect URL")
	}
	if t := sc.Transport(); t != "http" && t != "sse" {
		return fmt.Errorf("remote: server %q is not an http or sse server", sc.Name)
	}
	if hasConfiguredCredentials(sc) {
		return fmt.Errorf("remote: server %q takes its credentials from its config (Authorization header or headersHelper), not OAuth", sc.Name)
	}
	d.mu.Lock()
	sa := d.state(sc)
	sa.step, sa.redirectURL = step, redirectURL
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		sa.step, sa.redirectURL = nil, ""
		d.mu.Unlock()
	}()
	return reg.Reconnect(ctx, sc.Name)
}
