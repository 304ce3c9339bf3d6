package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"

	"github.com/plainmcp/plainmcp/internal/safeurl"
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

	// Store keeps tokens; nil, or a nil *FileStore or *MemoryStore, means
	// a new [MemoryStore].
	Store TokenStore

	// HTTPClient carries discovery, registration and token requests; nil
	// means a client with a 30-second timeout. A copy is used whose
	// redirect policy refuses, whatever its CheckRedirect says, a redirect
	// to a URL that is not https or http on loopback ([ErrUnsafeURL]), and
	// one of a token, registration or revocation request to another origin
	// ([ErrRedirected]).
	HTTPClient *http.Client

	// UserStepTimeout bounds an authorization that needs the user, from
	// discovery to the token: the person's time in the browser, not a
	// request's. It runs apart from the requests that wait for it, each
	// under its own context, so a request that gives up does not end it
	// and the next one joins it instead of starting another. Zero means
	// five minutes.
	UserStepTimeout time.Duration

	// Logger receives failed refreshes (at Warn) with the provider's
	// error code, never a token. Nil is silent.
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger
}

// defaultUserStepTimeout is the bound of an authorization that needs
// the user, when Config.UserStepTimeout is zero.
const defaultUserStepTimeout = 5 * time.Minute

// refreshMargin is how long before its expiry a token is refreshed.
const refreshMargin = 30 * time.Second

// An Authorizer authorizes requests to one MCP server with OAuth 2.1 as
// the MCP specification describes. It is safe for concurrent use. At most
// one renewal (a refresh, an authorization) runs at a time; requests that
// need one meanwhile wait for it, each as long as its own context lets
// it, and then use its token.
type Authorizer struct {
	cfg    Config
	server *url.URL
	http   *http.Client
	store  TokenStore

	mu         sync.Mutex
	loaded     bool     // tok was read from the store
	tok        *Token   // the current token, nil before the first
	gen        uint64   // counts the tokens taken up
	grant      *grant   // where tok came from
	pending    *flight  // the renewal under way, if any
	deadRT     [32]byte // SHA-256 of a refresh token the server refused
	challenge  authChallenge
	rsDPoP     bool   // the server has challenged with DPoP
	authServer string // the authorization endpoint's origin, once discovered
	clients    map[string]*clientInfo
	asNonces   map[string]string // the DPoP nonce of each token endpoint
	rsNonce    string            // the server's DPoP nonce
}

// New returns an Authorizer for cfg.
func New(cfg Config) (*Authorizer, error) {
	u, err := cfg.check()
	if err != nil {
		return nil, err
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "plainmcp"
	}
	if cfg.UserStepTimeout <= 0 {
		cfg.UserStepTimeout = defaultUserStepTimeout
	}
	a := &Authorizer{cfg: cfg, server: u, http: guardRedirects(cfg.HTTPClient), store: storeOrMemory(cfg.Store),
		clients: map[string]*clientInfo{}, asNonces: map[string]string{}}
	return a, nil
}

// storeOrMemory is store, or a new MemoryStore when there is none. A nil
// *FileStore or *MemoryStore counts as none: a host that sets Store from
// a pointer it fills only when it persists tokens hands over an interface
// holding a nil pointer, which is not nil, and whose first Load would
// panic.
func storeOrMemory(store TokenStore) TokenStore {
	switch s := store.(type) {
	case *FileStore:
		if s != nil {
			return s
		}
	case *MemoryStore:
		if s != nil {
			return s
		}
	case nil:
	default:
		return s
	}
	return &MemoryStore{}
}

// check refuses a Config no flow could use, and returns its server URL.
func (cfg *Config) check() (*url.URL, error) {
	u, err := url.Parse(cfg.ServerURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("oauth: Config.ServerURL must be an http or https URL")
	}
	switch {
	case cfg.RedirectURL == "" && cfg.UserStep != nil:
		return nil, errors.New("oauth: Config.RedirectURL is required with a UserStep")
	case cfg.ClientCredentials && cfg.ClientID == "":
		return nil, errors.New("oauth: Config.ClientCredentials needs a ClientID")
	case cfg.TokenAuthMethod == AuthPrivateKeyJWT && cfg.SigningKey.IsZero():
		return nil, errors.New("oauth: private_key_jwt needs Config.SigningKey")
	}
	if cfg.RedirectURL != "" {
		if _, err := safeurl.Parse("Config.RedirectURL", cfg.RedirectURL); err != nil {
			return nil, fmt.Errorf("oauth: %w", err)
		}
	}
	if !cfg.DPoPKey.IsZero() && !isP256(cfg.DPoPKey.Reveal()) {
		return nil, errors.New("oauth: Config.DPoPKey must be an ECDSA P-256 key")
	}
	return u, nil
}

// isP256 reports whether k is an ECDSA P-256 key, the one DPoP proofs
// (ES256) are signed with.
func isP256(k crypto.Signer) bool {
	pub, ok := k.Public().(*ecdsa.PublicKey)
	return ok && pub.Curve == elliptic.P256()
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
