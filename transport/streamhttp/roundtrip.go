package streamhttp

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// The round trippers every request goes through: the configured headers and
// the Authorize hook, kept to the server's origin, and the guard that
// refuses to follow a redirect elsewhere.

// headerRoundTripper adds the configured headers and the bearer token to
// requests bound for the server's origin. It runs for every hop, so a
// request to another origin goes out without them.
type headerRoundTripper struct {
	next    http.RoundTripper
	origin  homeOrigin
	headers http.Header
	authz   string // the Authorization value, from BearerToken or Authorization
	hooked  bool   // an Authorize layer follows: tell it what we sent
}

// preHookKey is the context key under which headerRoundTripper leaves the
// headers it sent to the Authorize layer, so that the guard below that
// layer can tell which headers it added.
type preHookKey struct{}

func (h *headerRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if !h.origin.has(req.URL) || (len(h.headers) == 0 && h.authz == "" && !h.hooked) {
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
	origin  homeOrigin
	secrets *secretSet
	hooked  bool
}

func (g *originGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if g.origin.has(req.URL) {
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

// homeOrigin is the server's origin, and the scheme and host of the URL
// it came from.
type homeOrigin struct {
	origin       string
	scheme, host string
}

// has reports whether u has the server's origin. A URL with the very
// scheme and host of the server's (every request the transport builds) is
// answered without building its origin.
func (o homeOrigin) has(u *url.URL) bool {
	if o.scheme != "" && u.Scheme == o.scheme && u.Host == o.host {
		return true
	}
	return origin(u) == o.origin
}

// origin is scheme://host:port with the default port made explicit (an
// IPv6 host in brackets). It holds no user info, path or query, so errors
// may show it.
func origin(u *url.URL) string {
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	host := strings.ToLower(u.Hostname())
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]" // IPv6, as net.JoinHostPort writes it
	}
	return scheme + "://" + host + ":" + port
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

// checkRedirect is the client's redirect policy: a redirect to another
// origin is never followed, whatever next (the caller's CheckRedirect)
// says, since the MCP endpoint's requests carry its credentials and its
// session; one within the origin is left to next, or to net/http's limit
// of 10 when next is nil. An error of next's is passed on with the URLs'
// secrets and the transport's redacted from its message. home is the
// origin of the endpoint.
func (b *httpBase) checkRedirect(home string, next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if o := origin(req.URL); o != home {
			return &redirectError{origin: o}
		}
		if next == nil {
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return nil
		}
		err := next(req, via)
		if err == nil || err == http.ErrUseLastResponse { // compared with ==, so not wrapped
			return err
		}
		urls := []*url.URL{req.URL}
		for _, r := range via {
			urls = append(urls, r.URL)
		}
		return &scrubbedError{msg: b.redact(redactURLsIn(err.Error(), urls)), err: err}
	}
}

// redirectError refuses a redirect of an MCP request to another origin.
// The client wraps it in a *url.Error naming the target URL, which the
// transport drops (urlErrorCause); it names the origin only.
type redirectError struct{ origin string }

func (e *redirectError) Error() string {
	return "refusing to follow a redirect of the MCP endpoint to another origin (" + e.origin + ")"
}

// scrubbedError is an error whose message had secrets removed; errors.Is
// and errors.As still see the original.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// redactURLsIn replaces, in msg, each URL of urls with its redacted form,
// and then their user info and queries wherever they still appear.
func redactURLsIn(msg string, urls []*url.URL) string {
	for _, u := range urls {
		if u != nil {
			msg = strings.ReplaceAll(msg, u.String(), redactURL(u))
		}
	}
	for _, u := range urls {
		if u == nil {
			continue
		}
		if u.User != nil && u.User.String() != "" {
			msg = strings.ReplaceAll(msg, u.User.String()+"@", "")
		}
		if len(u.RawQuery) >= minSecretLen {
			msg = strings.ReplaceAll(msg, u.RawQuery, "…")
		}
	}
	return msg
}
