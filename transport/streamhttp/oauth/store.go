package oauth

import (
	"context"
	"net/url"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/secret"
)

// A Token is what the token endpoint issued. Its secrets are
// [secret.String]s, so a Token prints, logs and marshals with them as
// "[redacted]" through every verb; a store that keeps them reads them
// with Reveal.
type Token struct {
	AccessToken  secret.String
	RefreshToken secret.String
	// Expiry is when the access token expires; zero means unknown.
	Expiry time.Time
	// Scope is the scope granted, space-separated, when the server said.
	Scope string
	// Type is the token type: "DPoP" for a token bound to the
	// Authorizer's DPoP key (RFC 9449), else "Bearer" (or empty).
	Type string

	// Where the token came from, so that a later run can refresh it: the
	// authorization server and its token endpoint, the resource, and the
	// client that obtained it. A client secret is as secret as the token:
	// a store keeps both alike.
	Issuer, TokenEndpoint, Resource string
	ClientID, ClientAuth            string
	ClientSecret                    secret.String
}

// grant rebuilds, from a stored token, what refreshing it needs; nil when
// the token does not say, or was obtained in a way a new run cannot
// repeat (a DPoP key or a private_key_jwt key of the run that made it).
func (t *Token) grant() *grant {
	if t == nil || t.RefreshToken.IsZero() || t.TokenEndpoint == "" || t.Type == "DPoP" || t.ClientAuth == AuthPrivateKeyJWT {
		return nil
	}
	return &grant{
		meta:     &ServerMetadata{Issuer: t.Issuer, TokenEndpoint: t.TokenEndpoint},
		client:   &clientInfo{id: t.ClientID, secret: t.ClientSecret, method: t.ClientAuth, audience: t.Issuer},
		resource: t.Resource,
	}
}

// withOrigin returns tok noting the grant it came from.
func withOrigin(tok *Token, g *grant) *Token {
	if g == nil || g.meta == nil || g.client == nil {
		return tok
	}
	t := *tok
	t.Issuer, t.TokenEndpoint, t.Resource = g.meta.Issuer, g.meta.TokenEndpoint, g.resource
	t.ClientID, t.ClientSecret, t.ClientAuth = g.client.id, g.client.secret, g.client.method
	return &t
}

// expiresWithin reports whether the token is known to expire within d.
func (t *Token) expiresWithin(d time.Duration) bool {
	return !t.Expiry.IsZero() && time.Until(t.Expiry) < d
}

// A TokenStore keeps tokens between requests and, if it persists them,
// between runs. Keys are MCP server URLs. Implementations must be safe for
// concurrent use.
type TokenStore interface {
	// Load returns the token stored under key, or nil with no error
	// when there is none.
	Load(ctx context.Context, key string) (*Token, error)
	// Save stores tok under key, replacing any token there.
	Save(ctx context.Context, key string, tok *Token) error
}

// MemoryStore is a [TokenStore] in memory, the default. Its zero value is
// ready to use; it is safe for concurrent use.
type MemoryStore struct {
	mu     sync.Mutex
	tokens map[string]Token
}

// Load implements [TokenStore].
func (m *MemoryStore) Load(_ context.Context, key string) (*Token, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tokens[key]
	if !ok {
		return nil, nil
	}
	return &t, nil
}

// Save implements [TokenStore].
func (m *MemoryStore) Save(_ context.Context, key string, tok *Token) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tokens == nil {
		m.tokens = make(map[string]Token)
	}
	m.tokens[key] = *tok
	return nil
}

// A UserStep is the part of the authorization code flow that happens in
// the user's browser: the host shows or opens the authorization URL, the
// user signs in and consents, and the authorization server redirects the
// browser to the client's redirect URL, which the host captures (a
// loopback listener, a custom scheme handler) and returns whole. The flow
// checks the state, the issuer and the code itself.
type UserStep interface {
	Authorize(ctx context.Context, authURL *url.URL) (redirect *url.URL, err error)
}

// UserStepFunc adapts a function to [UserStep].
type UserStepFunc func(ctx context.Context, authURL *url.URL) (*url.URL, error)

// Authorize calls f.
func (f UserStepFunc) Authorize(ctx context.Context, authURL *url.URL) (*url.URL, error) {
	return f(ctx, authURL)
}
