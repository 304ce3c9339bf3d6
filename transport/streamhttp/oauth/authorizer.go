package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/secret"
)

// Config describes the client to the authorization servers of one MCP
// server. Zero fields mean their defaults.
type Config struct {
	// ServerURL is the MCP endpoint, the same URL streamhttp dials. Its
	// protected resource metadata is looked up from it and tokens are
	// stored under it.
	ServerURL string

	// RedirectURL is where the authorization server sends the user's
	// browser back to; the UserStep captures that redirect. It must be
	// https, or http on a loopback host ([ErrUnsafeURL]).
	RedirectURL string

	// ClientName is the name registered with dynamic client registration.
	// Empty means "plainmcp".
	ClientName string

	// ClientID and ClientSecret are a pre-registered client's credentials.
	// Set, they are used at every authorization server; unset, the client
	// uses ClientMetadataURL where the server accepts client ID metadata
	// documents, and registers itself (RFC 7591) elsewhere.
	ClientID     string
	ClientSecret secret.String

	// TokenAuthMethod is how a pre-registered client authenticates at the
	// token endpoint: AuthBasic, AuthPost, AuthNone or AuthPrivateKeyJWT.
	// Empty means AuthPrivateKeyJWT with a SigningKey, else the first of
	// the others the server supports (AuthNone without a secret).
	TokenAuthMethod string

	// SigningKey signs the JWT assertions of AuthPrivateKeyJWT (RFC 7523):
	// an ECDSA P-256 key (ES256) or an RSA key (RS256).
	SigningKey secret.Value[crypto.Signer]

	// ClientMetadataURL is the HTTPS URL of the client's ID metadata
	// document, used as its client ID where the server supports that.
	ClientMetadataURL string

	// ClientCredentials gets tokens with the client credentials grant
	// (the MCP client credentials extension) as the client ClientID and
	// ClientSecret name, with no user step. It needs a ClientID.
	ClientCredentials bool

	// DPoPKey, an ECDSA P-256 key, makes every token DPoP-bound (RFC
	// 9449): proofs signed with it go to the token endpoint and with each
	// request to the server, which gets the token as "Authorization: DPoP".
	// Without it, tokens are DPoP-bound where the authorization server
	// advertises ES256 in dpop_signing_alg_values_supported, with a key
	// the Authorizer makes (once; it is not stored with the tokens).
	DPoPKey secret.Value[crypto.Signer]

	// JWTBearerAssertion, when set, gets tokens with the JWT bearer grant
	// (RFC 7523 section 2.1; the MCP workload identity extension): it
	// returns the assertion, such as a workload identity token, for the
	// authorization server issuer. There is no user step, and a refused
	// grant is an error, with no retry and no other grant. [IDJAG.Assertion]
	// gets it by token exchange at an enterprise IdP (the MCP
	// enterprise-managed authorization extension).
	JWTBearerAssertion func(ctx context.Context, issuer string) (secret.String, error)

	// UserStep sends the user to the authorization server and returns the
	// redirect. Without it, a server that needs authorization fails.
	UserStep UserStep

	// Scopes are asked for when the server's challenge names none
	// (.mcp.json's oauth.scopes); nil leaves it to the metadata.
	Scopes []string

	// ServerMetadataURL, if set, is where the authorization server's
	// metadata is read instead of discovering it (.mcp.json's
	// oauth.authServerMetadataUrl). The resource's metadata is still
	// checked.
	ServerMetadataURL string

	// Store keeps tokens; nil means a [MemoryStore].
	Store TokenStore

	// HTTPClient carries discovery, registration and token requests; nil
	// means a client with a 30-second timeout. It should not follow
	// redirects to other origins with credentials (net/http's clients
	// drop the Authorization header on such redirects).
	HTTPClient *http.Client

	// Logger receives refresh failures. Nil is silent.
	Logger *slog.Logger
}

// refreshMargin is how long before its expiry a token is refreshed.
const refreshMargin = 30 * time.Second

// An Authorizer authorizes requests to one MCP server with OAuth 2.1 as
// the MCP specification describes. It is safe for concurrent use; at most
// one authorization or refresh runs at a time, and requests that meet a
// 401 meanwhile wait for it and reuse its token.
type Authorizer struct {
	cfg    Config
	server *url.URL
	http   *http.Client
	store  TokenStore

	flow sync.Mutex // held through an authorization or a refresh

	mu       sync.Mutex
	loaded   bool   // tok was read from the store
	tok      *Token // the current token, nil before the first
	gen      uint64 // counts the tokens obtained
	grant    *grant // where tok came from; nil for a stored token
	attempts int    // authorizations and refreshes since the last success
	clients  map[string]*clientInfo
	dpopKey  crypto.Signer     // signs DPoP proofs
	asNonces map[string]string // the DPoP nonce of each token endpoint
	rsNonce  string            // the server's DPoP nonce
}

// New returns an Authorizer for cfg.
func New(cfg Config) (*Authorizer, error) {
	u, err := url.Parse(cfg.ServerURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("oauth: Config.ServerURL must be an http or https URL")
	}
	if cfg.RedirectURL == "" && cfg.UserStep != nil {
		return nil, errors.New("oauth: Config.RedirectURL is required with a UserStep")
	}
	if cfg.RedirectURL != "" {
		if _, err := safe.ParseURL("Config.RedirectURL", cfg.RedirectURL); err != nil {
			return nil, fmt.Errorf("oauth: %w", err)
		}
	}
	if cfg.ClientCredentials && cfg.ClientID == "" {
		return nil, errors.New("oauth: Config.ClientCredentials needs a ClientID")
	}
	if cfg.TokenAuthMethod == AuthPrivateKeyJWT && cfg.SigningKey.IsZero() {
		return nil, errors.New("oauth: private_key_jwt needs Config.SigningKey")
	}
	if !cfg.DPoPKey.IsZero() {
		if k, ok := cfg.DPoPKey.Reveal().Public().(*ecdsa.PublicKey); !ok || k.Curve != elliptic.P256() {
			return nil, errors.New("oauth: Config.DPoPKey must be an ECDSA P-256 key")
		}
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "plainmcp"
	}
	a := &Authorizer{cfg: cfg, server: u, http: cfg.HTTPClient, store: cfg.Store, clients: map[string]*clientInfo{},
		dpopKey: cfg.DPoPKey.Reveal(), asNonces: map[string]string{}}
	if a.http == nil {
		a.http = &http.Client{Timeout: 30 * time.Second}
	}
	if a.store == nil {
		a.store = &MemoryStore{}
	}
	return a, nil
}

// RoundTripper wraps next, the round-tripper to the MCP server, for
// streamhttp's Config.Authorize: it sends the current token, refreshes it
// shortly before it expires, and on a 401 refreshes or authorizes anew
// and sends the request once more. A 403 whose challenge says
// insufficient_scope authorizes anew for the scopes granted so far plus
// the challenge's. At most three authorizations or refreshes happen
// between two successful responses; past that, the 401 or 403 is
// returned as it came.
func (a *Authorizer) RoundTripper(next http.RoundTripper) http.RoundTripper {
	return &roundTripper{a: a, next: next}
}

type roundTripper struct {
	a    *Authorizer
	next http.RoundTripper
}

func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, t.a.server) {
		return t.next.RoundTrip(req) // tokens go to the server only
	}
	ctx := req.Context()
	tok, gen, err := t.a.current(ctx)
	if err != nil {
		return nil, err
	}
	retried401, retriedNonce := false, false
	for {
		r, err := t.a.withToken(req, tok)
		if err != nil {
			return nil, err
		}
		resp, err := t.next.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		if tok != nil && tok.Type == "DPoP" {
			if n := resp.Header.Get("DPoP-Nonce"); n != "" {
				t.a.mu.Lock()
				t.a.rsNonce = n
				t.a.mu.Unlock()
			}
		}
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			if resp.StatusCode < 300 {
				t.a.mu.Lock()
				t.a.attempts = 0
				t.a.mu.Unlock()
			}
			return resp, nil
		}
		if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
			return resp, nil // the body cannot be sent again
		}
		cs, _ := ParseChallenges(resp.Header.Values("WWW-Authenticate"))
		ch, _ := bearerChallenge(cs)
		if d, ok := schemeChallenge(cs, "DPoP"); ok {
			if d.Params["error"] == "use_dpop_nonce" && tok != nil && tok.Type == "DPoP" &&
				resp.Header.Get("DPoP-Nonce") != "" && !retriedNonce {
				// RFC 9449 section 9: send it again with the nonce.
				retriedNonce = true
				io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
				resp.Body.Close()
				if req, err = rewind(req); err != nil {
					return nil, err
				}
				continue
			}
			if ch.Scheme == "" {
				ch = d
			}
		}
		switch {
		case resp.StatusCode == http.StatusUnauthorized && retried401,
			resp.StatusCode == http.StatusForbidden && ch.Params["error"] != "insufficient_scope",
			!t.a.attempt():
			return resp, nil
		case resp.StatusCode == http.StatusUnauthorized:
			retried401 = true
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if tok, gen, err = t.a.reauthorize(ctx, gen, tok, ch); err != nil {
			return nil, err
		}
		if req, err = rewind(req); err != nil {
			return nil, err
		}
	}
}

// rewind is a copy of req to send again, with a fresh body.
func rewind(req *http.Request) (*http.Request, error) {
	r := req.Clone(req.Context())
	if r.GetBody != nil {
		var err error
		if r.Body, err = r.GetBody(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// maxAttempts bounds the authorizations (and refreshes) between two
// successful responses, so that a server that refuses every token, or
// asks for a scope it never grants, cannot loop the client.
const maxAttempts = 3

// attempt reports whether another authorization is allowed, and counts
// it.
func (a *Authorizer) attempt() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.attempts >= maxAttempts {
		return false
	}
	a.attempts++
	return true
}

// withToken is req with tok: a bearer token, or a DPoP-bound token with
// a fresh proof for this request (RFC 9449 section 7.1).
func (a *Authorizer) withToken(req *http.Request, tok *Token) (*http.Request, error) {
	if tok == nil {
		return req, nil
	}
	r := req.Clone(req.Context())
	if tok.Type != "DPoP" {
		r.Header.Set("Authorization", "Bearer "+tok.AccessToken.Reveal())
		return r, nil
	}
	a.mu.Lock()
	nonce := a.rsNonce
	a.mu.Unlock()
	p, err := a.proof(r.Method, r.URL, tok.AccessToken.Reveal(), nonce)
	if err != nil {
		return nil, err
	}
	r.Header.Set("Authorization", "DPoP "+tok.AccessToken.Reveal())
	r.Header.Set("DPoP", p)
	return r, nil
}

// current is the token to send (nil if none yet), refreshed first when it
// is about to expire, and its generation.
func (a *Authorizer) current(ctx context.Context) (*Token, uint64, error) {
	a.mu.Lock()
	if !a.loaded {
		tok, err := a.store.Load(ctx, a.cfg.ServerURL)
		if err != nil {
			a.mu.Unlock()
			return nil, 0, fmt.Errorf("oauth: loading the stored token: %w", err)
		}
		a.tok, a.loaded = tok, true
		if a.grant == nil {
			a.grant = tok.grant() // a stored token of an earlier run can be refreshed
		}
	}
	tok, gen, g := a.tok, a.gen, a.grant
	a.mu.Unlock()
	if tok == nil || tok.RefreshToken.IsZero() || g == nil || !tok.expiresWithin(refreshMargin) {
		return tok, gen, nil
	}
	a.flow.Lock()
	defer a.flow.Unlock()
	if t, n, ok := a.newer(gen); ok {
		return t, n, nil
	}
	fresh, err := a.refresh(ctx, tok, g)
	if err != nil {
		if a.cfg.Logger != nil {
			a.cfg.Logger.Warn("oauth: refreshing the token", "err", err)
		}
		return tok, gen, nil // a 401 will start a new authorization
	}
	n, err := a.set(ctx, fresh, g)
	return fresh, n, err
}

// reauthorize gets a new token after the server refused sent (nil when no
// token was sent) with challenge ch: a token another request obtained
// meanwhile, a refreshed token, or a new authorization.
func (a *Authorizer) reauthorize(ctx context.Context, gen uint64, sent *Token, ch Challenge) (*Token, uint64, error) {
	a.flow.Lock()
	defer a.flow.Unlock()
	if t, n, ok := a.newer(gen); ok {
		return t, n, nil
	}
	a.mu.Lock()
	g := a.grant
	a.mu.Unlock()
	if sent != nil && !sent.RefreshToken.IsZero() && g != nil && ch.Params["error"] != "insufficient_scope" {
		if fresh, err := a.refresh(ctx, sent, g); err == nil {
			n, err := a.set(ctx, fresh, g)
			return fresh, n, err
		} else if a.cfg.Logger != nil {
			a.cfg.Logger.Warn("oauth: refreshing the token", "err", err)
		}
	}
	tok, g, err := a.authorize(ctx, ch, g)
	if err != nil {
		return nil, 0, fmt.Errorf("oauth: authorizing at %s: %w", redact(a.cfg.ServerURL), err)
	}
	n, err := a.set(ctx, tok, g)
	return tok, n, err
}

// newer returns the current token if it is newer than generation gen.
func (a *Authorizer) newer(gen uint64) (*Token, uint64, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.tok, a.gen, a.gen != gen
}

// set makes tok the current token and stores it.
func (a *Authorizer) set(ctx context.Context, tok *Token, g *grant) (uint64, error) {
	a.mu.Lock()
	a.tok, a.grant = tok, g
	a.gen++
	gen := a.gen
	a.mu.Unlock()
	if err := a.store.Save(ctx, a.cfg.ServerURL, withOrigin(tok, g)); err != nil {
		return gen, fmt.Errorf("oauth: storing the token: %w", err)
	}
	return gen, nil
}

// refresh trades tok's refresh token for a new token (RFC 6749 section
// 6). A server that issues no new refresh token leaves the old one valid.
func (a *Authorizer) refresh(ctx context.Context, tok *Token, g *grant) (*Token, error) {
	fresh, err := a.requestToken(ctx, g.meta.TokenEndpoint, g.client, url.Values{
		"grant_type":    {"refresh_token"},
		"refresh_token": {tok.RefreshToken.Reveal()},
		"resource":      {g.resource},
	}, g.dpop)
	if err != nil {
		return nil, err
	}
	if fresh.RefreshToken.IsZero() {
		fresh.RefreshToken = tok.RefreshToken
	}
	return fresh, nil
}

// sameOrigin reports whether a and b have the same scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(hostPort(a), hostPort(b))
}

// hostPort is u's host with its port, the scheme's default if none.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if strings.EqualFold(u.Scheme, "https") {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}
