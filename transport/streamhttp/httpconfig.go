package streamhttp

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"

	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/transport"
)

// Config describes an MCP server reached over HTTP, for both the
// Streamable HTTP transport and the legacy HTTP+SSE one. Zero fields mean
// their defaults.
type Config struct {
	// URL is the server's MCP endpoint (Streamable HTTP) or SSE endpoint
	// (legacy HTTP+SSE).
	URL string

	// Legacy speaks only the HTTP+SSE transport of 2024-11-05, whose URL
	// is the server's event stream (.mcp.json's "type": "sse"). Unset,
	// Dial speaks Streamable HTTP and falls back to HTTP+SSE on its own
	// when the server refuses it.
	Legacy bool

	// ConnectTimeout bounds opening the HTTP+SSE event stream and waiting
	// for its endpoint event, even when the caller's context has no
	// deadline. Zero means 30s.
	ConnectTimeout time.Duration

	// Headers are sent with every request to the server, under their
	// names. Their values are secrets (API keys, tenant tokens), sent to
	// the server's origin only and redacted from every body quoted.
	// Names and values are checked: no CR or LF, and none of the names the
	// transport sets itself (Content-Type, Accept, Mcp-Session-Id,
	// MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID,
	// Authorization, Host, Content-Length, Connection, Transfer-Encoding …).
	Headers map[string]secret.String

	// BearerToken, if set, is sent as "Authorization: Bearer <token>" on
	// requests to the server's own origin, and only there. It never
	// appears in logs, errors or traces: an error body that echoes it is
	// quoted with "[redacted]" in its place.
	BearerToken secret.String

	// Authorization, if set, is the whole value of the Authorization
	// header ("Basic …", "Token …", any scheme), for servers that want
	// something other than a bearer token. Like BearerToken, which it
	// excludes, it goes to the server's own origin only and never appears
	// in logs, errors or traces.
	Authorization secret.String

	// Client is the HTTP client to use; nil means a client of our own. Its
	// Transport is wrapped and its CheckRedirect is wrapped, never
	// modified: a redirect to another origin (scheme, host and port) is
	// refused whatever the CheckRedirect says, and one within the origin is
	// left to it (nil: at most 10, as net/http does). Its Timeout is not
	// applied: it would cut an answer that streams progress for minutes,
	// and the event streams that live as long as the session; each request
	// is bounded by its caller (mcpclient's RequestTimeout, which progress
	// restarts), each message without an answer here.
	Client *http.Client

	// Authorize, if set, wraps the round-tripper that carries every request
	// to the server: it may add credentials and react to 401 and 403
	// answers. OAuth plugs in here. The headers it adds are treated as
	// credentials: redacted from quoted error bodies, and removed from
	// anything it sends through next to another origin (use a client of
	// its own for an authorization server).
	Authorize func(next http.RoundTripper) http.RoundTripper

	// MaxMessage bounds one message (a JSON body or one SSE event) in
	// bytes. Zero means transport.DefaultMaxLine.
	MaxMessage int

	// Logger receives dropped events and reconnects. Nil is silent.
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger
}

// ErrHeader is wrapped by the error for a header the config may not set.
var ErrHeader = errors.New("streamhttp: invalid header")

// reservedHeaders are set by the transports themselves.
var reservedHeaders = map[string]bool{
	"Accept": true, "Authorization": true, "Connection": true, "Content-Length": true,
	"Content-Type": true, "Host": true, "Last-Event-Id": true, "Mcp-Method": true,
	"Mcp-Name": true, "Mcp-Protocol-Version": true, "Mcp-Session-Id": true,
	"Proxy-Authorization": true, "Te": true, "Trailer": true, "Transfer-Encoding": true,
	"Upgrade": true,
}

// checkHeaders validates configured headers.
func checkHeaders(h map[string]secret.String) error {
	for name, value := range h {
		canon := textproto.CanonicalMIMEHeaderKey(name)
		if !validHeaderName(name) {
			return fmt.Errorf("%w: name %q", ErrHeader, name)
		}
		if reservedHeaders[canon] || strings.HasPrefix(canon, "Mcp-Param-") {
			return fmt.Errorf("%w: %s is set by the transport", ErrHeader, canon)
		}
		if strings.ContainsAny(value.Reveal(), "\r\n\x00") {
			return fmt.Errorf("%w: the value of %s contains a line break or NUL", ErrHeader, canon)
		}
	}
	return nil
}

// validHeaderName reports whether s is an HTTP token (RFC 9110).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// httpBase is what both HTTP transports share: the endpoint, the client
// whose round-tripper adds configured headers and credentials, and limits.
type httpBase struct {
	owned       *http.Transport // nil when the caller supplied the client
	endpoint    *url.URL
	endpointURL string // endpoint.String(), made once
	client      *http.Client
	maxMessage  int
	log         logging.Logger
	secrets     *secretSet // what errors and logs must never quote
}

// idleConnsPerHost is how many idle connections the pool the transport
// owns may keep: as many as it ever opened. Every request of a session is
// its own exchange, and the caller decides how many run at once
// (jsonrpc.Conn bounds no calls in flight); a connection the pool closes
// because a burst left more idle than some fixed number is one the next
// burst opens again — a TCP (and TLS) handshake for the client, and a
// connection's setup and goroutine for the server. net/http's default of
// 2 per host made 256 concurrent calls open a connection for almost
// every call; any fixed figure does the same to a burst just above it.
// So the pool's size follows the caller's concurrency, and what a burst
// opened is closed once idle for IdleConnTimeout (90 seconds), or by
// Close.
//
// MaxConnsPerHost stays unlimited for a like reason: with a cap, a call
// would wait for another's connection, and the answer to a server's
// request (sampling, elicitation) that a streamed call waits on must be
// POSTed on a connection of its own — a cap could deadlock them.
const idleConnsPerHost = math.MaxInt

func newHTTPBase(cfg *Config) (*httpBase, error) {
	u, text, err := parseServerURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if err := checkHeaders(cfg.Headers); err != nil {
		return nil, err
	}
	authz, err := authorizationValue(cfg)
	if err != nil {
		return nil, err
	}
	// Without a client of the caller's, the transport owns its connection
	// pool, so Close can release it.
	var owned *http.Transport
	var base http.RoundTripper
	client := &http.Client{}
	if cfg.Client != nil {
		c := *cfg.Client // a copy: the caller's client is not modified
		c.Timeout = 0    // see Config.Client
		client = &c
		base = c.Transport
	}
	if base == nil {
		owned = http.DefaultTransport.(*http.Transport).Clone()
		owned.MaxIdleConns = 0 // no limit in all: see idleConnsPerHost
		owned.MaxIdleConnsPerHost = idleConnsPerHost
		base = owned
	}
	b := &httpBase{owned: owned, endpoint: u, endpointURL: text, client: client, log: logging.Usable(cfg.Logger),
		maxMessage: orDefault(cfg.MaxMessage, transport.DefaultMaxLine),
		secrets:    newSecretSet(u, cfg.Headers, cfg.BearerToken, cfg.Authorization),
	}
	home := homeOrigin{origin: origin(u), scheme: u.Scheme, host: u.Host}
	client.Transport = b.layers(cfg, base, home, authz)
	client.CheckRedirect = b.checkRedirect(home.origin, client.CheckRedirect)
	return b, nil
}

// layers wraps base in the round-trippers every request goes through.
// Outermost first: configured headers and the bearer token, then the
// caller's authorization layer, then a guard that learns what that layer
// added (to redact it) and strips credentials from anything bound for
// another origin, whoever added them.
//
// A layer with nothing to do is left out, which changes nothing on the
// wire: headerRoundTripper when there are no headers, no Authorization
// and no hook to tell what was sent; the guard when the transport owns
// the client and there is no hook, since then nothing but the transport
// sets a header (no cookie jar, no round-tripper of the caller's) and
// nothing reaches another origin (checkRedirect refuses redirects there).
func (b *httpBase) layers(cfg *Config, base http.RoundTripper, home homeOrigin, authz string) http.RoundTripper {
	hooked := cfg.Authorize != nil
	rt := base
	if hooked || cfg.Client != nil {
		rt = &originGuard{next: base, origin: home, secrets: b.secrets, hooked: hooked}
	}
	if hooked {
		rt = cfg.Authorize(rt)
	}
	if len(cfg.Headers) == 0 && authz == "" && !hooked {
		return rt
	}
	return &headerRoundTripper{next: rt, origin: home, headers: revealed(cfg.Headers), authz: authz, hooked: hooked}
}

// authorizationValue is the Authorization header the config asks for:
// its Authorization value, or "Bearer " and its bearer token. Neither may
// carry a line break, nor the token a space, and only one may be set.
func authorizationValue(cfg *Config) (string, error) {
	bearer, authz := cfg.BearerToken.Reveal(), cfg.Authorization.Reveal()
	if strings.ContainsAny(bearer, "\r\n\x00 ") {
		return "", fmt.Errorf("%w: the bearer token contains spaces or line breaks", ErrHeader)
	}
	if strings.ContainsAny(authz, "\r\n\x00") {
		return "", fmt.Errorf("%w: the Authorization value contains line breaks", ErrHeader)
	}
	if authz != "" && bearer != "" {
		return "", fmt.Errorf("%w: Authorization and BearerToken are both set", ErrHeader)
	}
	if bearer != "" {
		authz = "Bearer " + bearer
	}
	return authz, nil
}

// revealed is the configured headers as the wire carries them.
func revealed(h map[string]secret.String) http.Header {
	if len(h) == 0 {
		return nil
	}
	out := make(http.Header, len(h))
	for name, v := range h {
		out[textproto.CanonicalMIMEHeaderKey(name)] = []string{v.Reveal()}
	}
	return out
}

// release closes the idle connections of a pool the transport owns.
func (b *httpBase) release() {
	if b.owned != nil {
		b.owned.CloseIdleConnections()
	}
}

// orDefault returns v, or def when v is zero or negative.
func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
