package oauth

import (
	"context"
	"crypto"
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
	// Type is the token type: "DPoP" for a token bound to DPoPKey (RFC
	// 9449), else "Bearer" (or empty).
	Type string
	// DPoPKey is the private key a DPoP-bound token is bound to; every
	// request with the token carries a proof signed with it, so a store
	// keeps it with the token, as secret as the token.
	DPoPKey secret.Value[crypto.Signer]
	// Obtained is when the token was issued; a store keeps the newer of
	// two tokens for one key.
	Obtained time.Time

	// Where the token came from, so that a later run can refresh it: the
	// authorization server and its token endpoint, the resource, and the
	// client that obtained it. A client secret is as secret as the token:
	// a store keeps both alike.
	Issuer, TokenEndpoint, Resource string
	ClientID, ClientAuth            string
	ClientSecret                    secret.String
	// RevocationEndpoint is the authorization server's RFC 7009
	// endpoint, when it offers one.
	RevocationEndpoint string
}

// grant rebuilds, from a stored token, what refreshing it needs; nil when
// the token does not say, or was obtained in a way a new run cannot
// repeat (a DPoP key or a private_key_jwt key of the run that made it).
func (t *Token) grant() *grant {
	if t == nil || t.RefreshToken.IsZero() || t.TokenEndpoint == "" || (t.Type == "DPoP" && t.DPoPKey.IsZero()) || t.ClientAuth == AuthPrivateKeyJWT {
		return nil
	}
	g := &grant{
		meta:     &serverMetadata{Issuer: t.Issuer, TokenEndpoint: t.TokenEndpoint, RevocationEndpoint: t.RevocationEndpoint},
		client:   &clientInfo{id: t.ClientID, secret: t.ClientSecret, method: t.ClientAuth, audience: t.Issuer},
		resource: t.Resource,
		scope:    t.Scope,
		revoke:   t.RevocationEndpoint,
	}
	if t.Type == "DPoP" {
		g.dpopKey = t.DPoPKey.Reveal()
	}
	return g
}

// withOrigin returns tok noting the grant it came from.
func withOrigin(tok *Token, g *grant) *Token {
	if g == nil || g.meta == nil || g.client == nil {
		return tok
	}
	t := *tok
	t.Issuer, t.TokenEndpoint, t.Resource = g.meta.Issuer, g.meta.TokenEndpoint, g.resource
	t.ClientID, t.ClientSecret, t.ClientAuth = g.client.id, g.client.secret, g.client.method
	t.RevocationEndpoint = g.revoke
	if t.Type == "DPoP" {
		t.DPoPKey = secret.Value[crypto.Signer]{}
		if g.dpopKey != nil {
			t.DPoPKey = secret.New(g.dpopKey)
		}
	}
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

// MemoryStore is a [TokenStore], a [Locker] and a [ClientStore] in
// memory, the default. Its zero value is ready to use; it is safe for
// concurrent use.
type MemoryStore struct {
	mu      sync.Mutex
	tokens  map[string]Token
	clients map[string]Client
	lock    keyLock
	logins  loginLocks
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

// Save implements [TokenStore]. A token obtained before the one stored is
// not saved over it.
func (m *MemoryStore) Save(_ context.Context, key string, tok *Token) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tokens == nil {
		m.tokens = make(map[string]Token)
	}
	if old, ok := m.tokens[key]; ok && old.Obtained.After(tok.Obtained) && !tok.Obtained.IsZero() {
		return nil
	}
	m.tokens[key] = *tok
	return nil
}

// Lock implements [Locker].
func (m *MemoryStore) Lock(ctx context.Context, key string) (context.Context, func(), error) {
	unlock, err := m.lock.lock(ctx)
	return ctx, unlock, err
}

// LoadClient implements [ClientStore].
func (m *MemoryStore) LoadClient(_ context.Context, issuer, redirectURL string) (*Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.clients[issuer+" "+redirectURL]
	if !ok {
		return nil, nil
	}
	return &c, nil
}

// SaveClient implements [ClientStore].
func (m *MemoryStore) SaveClient(_ context.Context, issuer, redirectURL string, c *Client) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.clients == nil {
		m.clients = make(map[string]Client)
	}
	m.clients[issuer+" "+redirectURL] = *c
	return nil
}

// loginLock implements loginLocker.
func (m *MemoryStore) loginLock(ctx context.Context, key string) (func(), error) {
	return m.logins.lock(ctx, key)
}

// A loginLocker is a store that lets one Authorizer at a time, in this
// process, run a login with the user for a key: the others that share
// the store wait, then take up the token it stored.
type loginLocker interface {
	loginLock(ctx context.Context, key string) (unlock func(), err error)
}

// loginLocks is a keyLock per key.
type loginLocks struct {
	mu   sync.Mutex
	keys map[string]*keyLock
}

func (l *loginLocks) lock(ctx context.Context, key string) (func(), error) {
	l.mu.Lock()
	if l.keys == nil {
		l.keys = map[string]*keyLock{}
	}
	k := l.keys[key]
	if k == nil {
		k = &keyLock{}
		l.keys[key] = k
	}
	l.mu.Unlock()
	return k.lock(ctx)
}

// keyLock is a mutex a waiter can give up on: a one-slot channel, made
// on first use.
type keyLock struct {
	mu sync.Mutex
	ch chan struct{}
}

func (k *keyLock) lock(ctx context.Context) (func(), error) {
	k.mu.Lock()
	if k.ch == nil {
		k.ch = make(chan struct{}, 1)
	}
	ch := k.ch
	k.mu.Unlock()
	select {
	case ch <- struct{}{}:
		var once sync.Once
		return func() { once.Do(func() { <-ch }) }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// A Client is a client the Authorizer registered at an authorization
// server (RFC 7591), as a [ClientStore] keeps it.
type Client struct {
	ID         string
	Secret     secret.String
	AuthMethod string    // its token endpoint authentication method
	Registered time.Time // when
}

// A ClientStore is a [TokenStore] that also keeps the clients the
// Authorizer registers, by the authorization server's issuer and the
// redirect URL, so that later runs reuse one rather than register
// another each time (authorization servers limit registrations).
// [MemoryStore] and [FileStore] are ClientStores.
type ClientStore interface {
	// LoadClient returns the client stored for issuer and redirectURL,
	// or nil with no error when there is none.
	LoadClient(ctx context.Context, issuer, redirectURL string) (*Client, error)
	// SaveClient stores c for issuer and redirectURL.
	SaveClient(ctx context.Context, issuer, redirectURL string, c *Client) error
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

// sameToken reports whether a and b are the same access token, or both
// none.
func sameToken(a, b *Token) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.AccessToken.Equal(b.AccessToken)
}
