package streamhttp

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

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

	// Headers are sent with every request to the server. Names and values
	// are checked: no CR or LF, and none of the names the transport sets
	// itself (Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version,
	// Mcp-Method, Mcp-Name, Last-Event-ID, Authorization, Host,
	// Content-Length, Connection, Transfer-Encoding …).
	Headers http.Header

	// BearerToken, if set, is sent as "Authorization: Bearer <token>" on
	// requests to the server's own origin, and only there: never on a
	// redirect elsewhere. It never appears in logs, errors or traces.
	BearerToken string

	// Client is the HTTP client to use; nil means a client of our own. Its
	// Transport is wrapped, never modified.
	Client *http.Client

	// Authorize, if set, wraps the round-tripper that carries every request
	// to the server: it may add credentials and react to 401 and 403
	// answers. OAuth plugs in here.
	Authorize func(next http.RoundTripper) http.RoundTripper

	// MaxMessage bounds one message (a JSON body or one SSE event) in
	// bytes. Zero means transport.DefaultMaxLine.
	MaxMessage int

	// Logger receives dropped events and reconnects. Nil is silent.
	Logger *slog.Logger
}

// ErrHeader is wrapped by the error for a header the config may not set.
var ErrHeader = errors.New("transport: invalid header")

// reservedHeaders are set by the transports themselves.
var reservedHeaders = map[string]bool{
	"Accept": true, "Authorization": true, "Connection": true, "Content-Length": true,
	"Content-Type": true, "Host": true, "Last-Event-Id": true, "Mcp-Method": true,
	"Mcp-Name": true, "Mcp-Protocol-Version": true, "Mcp-Session-Id": true,
	"Proxy-Authorization": true, "Te": true, "Trailer": true, "Transfer-Encoding": true,
	"Upgrade": true,
}

// checkHeaders validates configured headers.
func checkHeaders(h http.Header) error {
	for name, values := range h {
		canon := textproto.CanonicalMIMEHeaderKey(name)
		if !validHeaderName(name) {
			return fmt.Errorf("%w: name %q", ErrHeader, name)
		}
		if reservedHeaders[canon] || strings.HasPrefix(canon, "Mcp-Param-") {
			return fmt.Errorf("%w: %s is set by the transport", ErrHeader, canon)
		}
		for _, v := range values {
			if strings.ContainsAny(v, "\r\n\x00") {
				return fmt.Errorf("%w: the value of %s contains a line break or NUL", ErrHeader, canon)
			}
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
	owned      *http.Transport // nil when the caller supplied the client
	endpoint   *url.URL
	client     *http.Client
	maxMessage int
	log        *slog.Logger
}

func newHTTPBase(cfg *Config) (*httpBase, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("transport: server URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("transport: server URL %q: want an http or https URL", redactURL(u))
	}
	if err := checkHeaders(cfg.Headers); err != nil {
		return nil, err
	}
	if strings.ContainsAny(cfg.BearerToken, "\r\n\x00 ") {
		return nil, fmt.Errorf("%w: the bearer token contains spaces or line breaks", ErrHeader)
	}
	// Without a client of the caller's, the transport owns its connection
	// pool, so Close can release it.
	var owned *http.Transport
	var base http.RoundTripper
	client := &http.Client{}
	if cfg.Client != nil {
		c := *cfg.Client // a copy: the caller's client is not modified
		client = &c
		base = c.Transport
	}
	if base == nil {
		owned = http.DefaultTransport.(*http.Transport).Clone()
		base = owned
	}
	// Outermost first: configured headers and the bearer token, then the
	// caller's authorization layer, then a guard that strips credentials
	// from anything bound for another origin, whoever added them.
	var rt http.RoundTripper = &originGuard{next: base, origin: origin(u)}
	if cfg.Authorize != nil {
		rt = cfg.Authorize(rt)
	}
	client.Transport = &headerRoundTripper{
		next:    rt,
		origin:  origin(u),
		headers: cfg.Headers.Clone(),
		bearer:  cfg.BearerToken,
	}
	return &httpBase{
		owned:      owned,
		endpoint:   u,
		client:     client,
		maxMessage: orDefault(cfg.MaxMessage, transport.DefaultMaxLine),
		log:        cfg.Logger,
	}, nil
}

// headerRoundTripper adds the configured headers and the bearer token to
// requests bound for the server's origin. It runs for every hop, so a
// redirect to another origin goes out without them.
type headerRoundTripper struct {
	next    http.RoundTripper
	origin  string
	headers http.Header
	bearer  string
}

func (h *headerRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if origin(req.URL) != h.origin || (len(h.headers) == 0 && h.bearer == "") {
		return h.next.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	for name, values := range h.headers {
		r.Header[textproto.CanonicalMIMEHeaderKey(name)] = values
	}
	if h.bearer != "" && r.Header.Get("Authorization") == "" {
		r.Header.Set("Authorization", "Bearer "+h.bearer)
	}
	return h.next.RoundTrip(r)
}

// originGuard removes credentials from requests to any origin but the
// server's, such as a redirect target.
type originGuard struct {
	next   http.RoundTripper
	origin string
}

func (g *originGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if origin(req.URL) == g.origin || (req.Header.Get("Authorization") == "" && req.Header.Get("Cookie") == "") {
		return g.next.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.Header.Del("Authorization")
	r.Header.Del("Cookie")
	return g.next.RoundTrip(r)
}

// origin is scheme://host:port with the default port made explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// redactURL drops user info and the query (which may hold keys) for
// messages.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		c.RawQuery = "…"
	}
	return c.String()
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
