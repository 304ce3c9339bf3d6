package oauth

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/secret"
)

// newPKCE returns a fresh PKCE code verifier and its S256 challenge
// (RFC 7636 section 4).
func newPKCE() (verifier, challenge string) {
	verifier = randomString()
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// randomString is 32 random bytes in base64url: 43 characters, usable as
// a PKCE verifier or a state.
func randomString() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand documents it)
	return base64.RawURLEncoding.EncodeToString(b)
}

// grant is what an authorization produced besides the token: where to
// refresh it.
type grant struct {
	meta     *serverMetadata
	client   *clientInfo
	resource string
	scope    string        // the scope requested
	dpopKey  crypto.Signer // binds the tokens (RFC 9449); nil for Bearer
	revoke   string        // the revocation endpoint (RFC 7009), if any
}

// authorize runs the whole authorization code flow for the challenge ch
// (the Bearer challenge of a 401 or 403, possibly empty): discovery,
// client identity, the user step, and the token request. prev is the
// grant of the current token, if any: a step-up asks for its scope and
// the challenge's together. login, from [Authorizer.Login], may name the
// user step, the redirect and more scopes.
func (a *Authorizer) authorize(ctx context.Context, ch authChallenge, prev *grant, stepUp bool, login *LoginOptions) (*Token, *grant, error) {
	g := &grant{resource: canonicalResource(a.server)}
	scope, step, redirect := a.flowScope(ch, prev, stepUp, login)
	if err := checkScope(scope); err != nil {
		return nil, nil, err
	}
	prm, scope, assumed, err := a.discover(ctx, ch, g, scope)
	if err == nil {
		err = checkScope(scope) // the resource's scopes_supported, when the challenge named none
	}
	if err != nil {
		return nil, nil, err
	}
	a.noteAuthServer(g.meta)
	if g.dpopKey, err = a.dpopKeyFor(g.meta, prm); err != nil {
		return nil, nil, err
	}
	g.revoke = g.meta.RevocationEndpoint
	if a.cfg.JWTBearerAssertion != nil {
		return a.jwtBearer(ctx, g, scope)
	}
	if a.cfg.ClientCredentials {
		return a.clientCredentials(ctx, g, scope)
	}
	if err := g.meta.checkCodeFlow(assumed); err != nil {
		return nil, nil, err
	}
	if step == nil {
		// Before any registration: a client registered for nobody is one
		// more the authorization server counts against its limit.
		return nil, nil, ErrNoUser
	}
	return a.codeFlow(ctx, g, scope, step, redirect)
}

// flowScope is the scope a flow asks for — the challenge's, else the
// host's; on a step-up, with the current grant's; with a login's own —
// and the user step and redirect URL it uses.
func (a *Authorizer) flowScope(ch authChallenge, prev *grant, stepUp bool, login *LoginOptions) (scope string, step UserStep, redirect string) {
	scope = ch.Params["scope"]
	if scope == "" && len(a.cfg.Scopes) > 0 {
		scope = strings.Join(a.cfg.Scopes, " ") // the host's choice, when the server names none
	}
	if stepUp || ch.Params["error"] == "insufficient_scope" {
		had := ""
		if prev != nil {
			had = prev.scope
		}
		a.mu.Lock()
		if had == "" && a.tok != nil {
			had = a.tok.Scope // a stored token's grant may not say
		}
		a.mu.Unlock()
		scope = union(had, scope)
	}
	step, redirect = a.cfg.UserStep, a.cfg.RedirectURL
	if login != nil {
		scope = union(scope, strings.Join(login.Scopes, " "))
		if login.UserStep != nil {
			step = login.UserStep
		}
		if login.RedirectURL != "" {
			redirect = login.RedirectURL
		}
	}
	return scope, step, redirect
}

// discover finds the resource's metadata and its authorization server's
// (g.resource, g.meta), the scope the resource supports when none was
// named, and whether the endpoints are the 2025-03-26 defaults (assumed).
func (a *Authorizer) discover(ctx context.Context, ch authChallenge, g *grant, scope string) (prm *resourceMetadata, _ string, assumed bool, err error) {
	prm, err = discoverResource(ctx, a.http, a.server, ch.Params["resource_metadata"])
	switch {
	case err == nil && a.cfg.ServerMetadataURL != "":
		// The host names the authorization server's metadata: no
		// discovery of it, the resource's metadata still checked.
		g.meta, err = fetchServerMetadata(ctx, a.http, a.cfg.ServerMetadataURL)
	case err == nil:
		g.meta, err = discoverServer(ctx, a.http, prm.AuthorizationServers[0])
	case errors.Is(err, ErrNoMetadata):
		// A server of the 2025-03-26 specification: its origin is the
		// authorization server.
		g.meta, assumed, err = legacyServer(ctx, a, a.server)
		return nil, scope, assumed, err
	default:
		return nil, scope, false, err
	}
	if err != nil {
		return nil, scope, false, err
	}
	g.resource = prm.Resource
	if scope == "" {
		scope = strings.Join(prm.ScopesSupported, " ")
	}
	return prm, scope, false, nil
}

// noteAuthServer remembers the authorization server's origin, for hosts
// that show where a login goes.
func (a *Authorizer) noteAuthServer(m *serverMetadata) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if u, err := url.Parse(m.AuthorizationEndpoint); err == nil && u.Host != "" {
		a.authServer = u.Scheme + "://" + u.Host
	}
}

// codeFlow is the authorization code grant with PKCE: the client for the
// redirect, the user step, and the code exchanged for a token.
func (a *Authorizer) codeFlow(ctx context.Context, g *grant, scope string, step UserStep, redirect string) (*Token, *grant, error) {
	if scope != "" && slices.Contains(g.meta.ScopesSupported, "offline_access") &&
		!slices.Contains(strings.Fields(scope), "offline_access") {
		scope += " offline_access"
	}
	g.scope = scope
	var err error
	if g.client, err = a.clientFor(ctx, g.meta, redirect); err != nil {
		return nil, nil, err
	}
	code, verifier, err := a.userStep(ctx, step, redirect, g, scope)
	if err != nil {
		return nil, nil, err
	}
	tok, err := a.requestToken(ctx, g.meta.TokenEndpoint, g.client, url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {redirect},
		"code_verifier": {verifier},
		"resource":      {g.resource},
	}, g.dpopKey)
	if err != nil {
		return nil, nil, err
	}
	return tok, g, nil
}

// userStep sends the user to the authorization endpoint and checks the
// redirect that comes back: state, RFC 9207 iss, and code.
func (a *Authorizer) userStep(ctx context.Context, step UserStep, redirect string, g *grant, scope string) (code, verifier string, err error) {
	authURL, err := safeurl.Parse("the authorization server's authorization_endpoint", g.meta.AuthorizationEndpoint)
	if err != nil {
		return "", "", fmt.Errorf("oauth: %w", err)
	}
	verifier, challenge := newPKCE()
	state := randomString()
	q := authURL.Query()
	q.Set("response_type", "code")
	q.Set("client_id", g.client.id)
	q.Set("redirect_uri", redirect)
	q.Set("code_challenge", challenge)
	q.Set("code_challenge_method", "S256")
	q.Set("state", state)
	q.Set("resource", g.resource)
	if scope != "" {
		q.Set("scope", scope)
		if slices.Contains(strings.Fields(scope), "offline_access") {
			// OpenID Connect Core section 11: a refresh token for
			// offline_access needs the user's consent, asked for.
			q.Set("prompt", "consent")
		}
	}
	authURL.RawQuery = q.Encode()
	back, err := step.Authorize(ctx, authURL)
	if err != nil {
		return "", "", fmt.Errorf("oauth: user step: %w", err)
	}
	if back == nil {
		return "", "", errors.New("oauth: user step returned no redirect")
	}
	r := back.Query()
	if r.Get("state") != state {
		return "", "", ErrState
	}
	iss, hasIss := r["iss"]
	switch {
	case hasIss && (len(iss) != 1 || iss[0] != g.meta.Issuer):
		return "", "", fmt.Errorf("%w: the authorization response's iss is not %q", ErrIssuerMismatch, safe.Line(g.meta.Issuer, maxQuoted))
	case !hasIss && g.meta.IssParameterSupported:
		return "", "", fmt.Errorf("%w: the authorization response lacks the iss the server advertises", ErrIssuerMismatch)
	}
	if e := r.Get("error"); e != "" {
		return "", "", &AuthorizationError{Code: safe.Quote(e, maxErrorCode),
			Description: safe.Quote(r.Get("error_description"), maxErrorDescription, secret.New(verifier))}
	}
	if code = r.Get("code"); code == "" {
		return "", "", errors.New("oauth: the authorization response has no code")
	}
	return code, verifier, nil
}

// legacyServer finds the authorization server of a 2025-03-26 server,
// which has no protected resource metadata: metadata at the server's
// origin, else the default endpoints there.
func legacyServer(ctx context.Context, a *Authorizer, server *url.URL) (m *serverMetadata, defaults bool, err error) {
	root := (&url.URL{Scheme: server.Scheme, Host: server.Host}).String()
	m = &serverMetadata{}
	found, err := getJSON(ctx, a.http, root+"/.well-known/oauth-authorization-server", m)
	if err != nil {
		return nil, false, err
	}
	if found {
		// That specification did not tie the issuer to the origin.
		return m, false, m.check(server)
	}
	m = &serverMetadata{
		AuthorizationEndpoint: root + "/authorize",
		TokenEndpoint:         root + "/token",
		RegistrationEndpoint:  root + "/register",
	}
	return m, true, m.checkURLs(server)
}

// canonicalResource is the server URL as a resource indicator (RFC 8707):
// no fragment, no query.
func canonicalResource(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment, c.RawQuery, c.ForceQuery, c.User = "", "", "", false, nil
	return c.String()
}

// union is the space-separated scopes of a followed by those of b that a
// lacks. It takes time in proportion to their length, whatever a hostile
// server's challenge holds (checkScope bounds what is asked for after).
func union(a, b string) string {
	out := strings.Fields(a)
	seen := make(map[string]bool, len(out))
	for _, s := range out {
		seen[s] = true
	}
	for _, s := range strings.Fields(b) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

// maxScope bounds the scope an authorization asks for, in bytes: a
// server's challenge (or its metadata's scopes_supported) names it, and
// it goes into the authorization URL the user opens and into mcpc's
// step-up offer. Real scopes run to a few hundred bytes.
const maxScope = 8 << 10

// checkScope refuses a scope longer than maxScope.
func checkScope(scope string) error {
	if len(scope) > maxScope {
		return fmt.Errorf("oauth: the server asks for a scope of %d bytes, more than %d", len(scope), maxScope)
	}
	return nil
}
