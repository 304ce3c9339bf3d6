package streamhttp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

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
	// left to it (nil: at most 10, as net/http does).
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
	owned      *http.Transport // nil when the caller supplied the client
	endpoint   *url.URL
	client     *http.Client
	maxMessage int
	log        *slog.Logger
	secrets    *secretSet // what errors and logs must never quote
}

// idleConnsPerHost is how many idle connections the pool the transport
// owns keeps per host (and in all). Every request of a session is its own
// exchange, and many run at once (jsonrpc.Conn lets any number of calls be
// in flight); net/http's default of 2 idle connections per host would
// close nearly every connection a burst of concurrent calls opened, so
// that 256 concurrent calls would open a new TCP (and TLS) connection for
// almost every call. Idle connections cost a file descriptor each and are
// closed after the transport's IdleConnTimeout, or by Close.
const idleConnsPerHost = 256

func newHTTPBase(cfg *Config) (*httpBase, error) {
	u, err := parseServerURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if err := checkHeaders(cfg.Headers); err != nil {
		return nil, err
	}
	bearer, authz := cfg.BearerToken.Reveal(), cfg.Authorization.Reveal()
	if strings.ContainsAny(bearer, "\r\n\x00 ") {
		return nil, fmt.Errorf("%w: the bearer token contains spaces or line breaks", ErrHeader)
	}
	if strings.ContainsAny(authz, "\r\n\x00") {
		return nil, fmt.Errorf("%w: the Authorization value contains line breaks", ErrHeader)
	}
	if authz != "" && bearer != "" {
		return nil, fmt.Errorf("%w: Authorization and BearerToken are both set", ErrHeader)
	}
	if bearer != "" {
		authz = "Bearer " + bearer
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
		owned.MaxIdleConns = idleConnsPerHost
		owned.MaxIdleConnsPerHost = idleConnsPerHost
		base = owned
	}
	b := &httpBase{
		owned:      owned,
		endpoint:   u,
		client:     client,
		maxMessage: orDefault(cfg.MaxMessage, transport.DefaultMaxLine),
		log:        cfg.Logger,
		secrets:    newSecretSet(u, cfg.Headers, cfg.BearerToken, cfg.Authorization),
	}
	home := origin(u)
	// Outermost first: configured headers and the bearer token, then the
	// caller's authorization layer, then a guard that learns what that
	// layer added (to redact it) and strips credentials from anything
	// bound for another origin, whoever added them.
	guard := &originGuard{next: base, origin: home, secrets: b.secrets, hooked: cfg.Authorize != nil}
	var rt http.RoundTripper = guard
	if cfg.Authorize != nil {
		rt = cfg.Authorize(rt)
	}
	client.Transport = &headerRoundTripper{
		next:    rt,
		origin:  home,
		headers: revealed(cfg.Headers),
		authz:   authz,
		hooked:  cfg.Authorize != nil,
	}
	client.CheckRedirect = b.checkRedirect(client.CheckRedirect)
	return b, nil
}

// revealed is the configured headers as the wire carries them.
func revealed(h map[string]secret.String) http.Header {
	out := make(http.Header, len(h))
	for name, v := range h {
		out[textproto.CanonicalMIMEHeaderKey(name)] = []string{v.Reveal()}
	}
	return out
}

// parseServerURL parses the configured URL. Its errors never quote the
// URL's user info, query or fragment, which may hold credentials:
// url.Parse's own error repeats the whole URL, so it is never wrapped.
func parseServerURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, malformedURL(raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("transport: server URL %q: want an http or https URL", redactURL(u))
	}
	// Every request is made from the URL's text; make sure that text
	// parses, so that no request can fail with an error quoting it.
	if _, err := url.Parse(u.String()); err != nil {
		return nil, malformedURL(u.String(), err)
	}
	return u, nil
}

// malformedURL describes why raw did not parse, without its secrets. It
// shows the URL's scheme, host and path when they can be told apart from
// the rest, and the reason url.Parse gave without the parts it quotes
// (which may come from the user info), unless the reason lies in what is
// shown.
func malformedURL(raw string, err error) error {
	reason := unquoted(urlErrorCause(err).Error())
	shown, ok := urlWithoutSecrets(raw)
	if !ok {
		return fmt.Errorf("transport: the server URL is malformed: %s", reason)
	}
	if _, err := url.Parse(shown); err != nil {
		reason = urlErrorCause(err).Error() // it quotes only what is shown
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 && raw[i] == '?' {
		shown += "?…"
	}
	return fmt.Errorf("transport: the server URL %q is malformed: %s", shown, reason)
}

// urlWithoutSecrets is the text of a URL that may not parse, without its
// user info, query and fragment: what comes after the last "@" (the user
// info's end) and before the first "?" or "#". ok is false when that is
// ambiguous: an "@" after the first "?" or "#" may be in the query, or the
// "?" in a password.
func urlWithoutSecrets(raw string) (string, bool) {
	end := strings.IndexAny(raw, "?#")
	if end < 0 {
		end = len(raw)
	}
	at := strings.LastIndexByte(raw, '@')
	if at < 0 {
		return raw[:end], true
	}
	if at > end {
		return "", false
	}
	if i := strings.Index(raw, "//"); i >= 0 && i < at {
		return raw[:i+2] + raw[at+1:end], true
	}
	return raw[at+1 : end], true
}

// unquoted is an error message without the Go-quoted strings in it, such
// as the parts of a URL url.Parse quotes.
func unquoted(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(msg)
			break
		}
		b.WriteString(msg[:i])
		if q, err := strconv.QuotedPrefix(msg[i:]); err == nil {
			msg = msg[i+len(q):]
		} else {
			msg = "" // an unterminated quote: drop the rest
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// headerRoundTripper adds the configured headers and the bearer token to
// requests bound for the server's origin. It runs for every hop, so a
// request to another origin goes out without them.
type headerRoundTripper struct {
	next    http.RoundTripper
	origin  string
	headers http.Header
	authz   string // the Authorization value, from BearerToken or Authorization
	hooked  bool   // an Authorize layer follows: tell it what we sent
}

// preHookKey is the context key under which headerRoundTripper leaves the
// headers it sent to the Authorize layer, so that the guard below that
// layer can tell which headers it added.
type preHookKey struct{}

func (h *headerRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if origin(req.URL) != h.origin || (len(h.headers) == 0 && h.authz == "" && !h.hooked) {
		return h.next.RoundTrip(req)
	}
	r := req
	if len(h.headers) > 0 || h.authz != "" {
		r = req.Clone(req.Context())
		for name, values := range h.headers {
			r.Header[name] = values
		}
		if h.authz != "" && r.Header.Get("Authorization") == "" {
			r.Header.Set("Authorization", h.authz)
		}
	}
	if h.hooked {
		// A copy of the headers: a hook may change the request's map in
		// place.
		r = r.WithContext(context.WithValue(r.Context(), preHookKey{}, r.Header.Clone()))
	}
	return h.next.RoundTrip(r)
}

// originGuard sits below the Authorize layer. On requests to the server's
// origin it learns the credentials that layer and a cookie jar added, for
// redaction; from requests to any other origin (which only an Authorize
// layer or a caller's round-tripper can send: redirects there are
// refused) it removes every credential: Authorization, Cookie,
// Proxy-Authorization, the configured headers, the headers the Authorize
// layer added, Mcp-Session-Id and Mcp-Param-*.
type originGuard struct {
	next    http.RoundTripper
	origin  string
	secrets *secretSet
	hooked  bool
}

func (g *originGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if origin(req.URL) == g.origin {
		g.secrets.learnRequest(req, g.hooked)
		return g.next.RoundTrip(req)
	}
	var strip []string
	for name := range req.Header {
		if g.secrets.stripAcrossOrigins(name) {
			strip = append(strip, name)
		}
	}
	if len(strip) == 0 {
		return g.next.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	for _, name := range strip {
		delete(r.Header, name) // as spelled in the map, canonical or not
	}
	return g.next.RoundTrip(r)
}

// origin is scheme://host:port with the default port made explicit (an
// IPv6 host in brackets). It holds no user info, path or query, so errors
// may show it.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// redactURL drops user info, the query (which may hold keys) and the
// fragment for messages; the query is shown as "?…". An opaque URL (no
// "//", such as "user:password@host") shows only its scheme.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	if c.Opaque != "" {
		c.Opaque = "…"
	}
	if c.RawQuery != "" {
		c.RawQuery = "…"
	}
	c.Fragment, c.RawFragment = "", ""
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
