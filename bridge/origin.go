package bridge

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Where a provider request may go: the key and the conversation stay with
// the provider's origin, and the key never crosses a network in clear.

// ErrRedirected is wrapped by the error of a request that the provider
// redirected to another origin (scheme, host and port). Such a redirect
// is never followed: it would hand the API key and the whole conversation
// to whoever the provider names. A redirect within the provider's origin
// is followed as the client's CheckRedirect allows.
var ErrRedirected = errors.New("bridge: the provider redirected to another origin")

// redirectError is what CheckRedirect returns for a redirect to another
// origin; to is that origin alone (no path, no query: they may hold
// anything).
type redirectError struct{ to string }

func (e *redirectError) Error() string { return "redirect to another origin: " + e.to }

// causedError is a *jsonrpc.Error, fit for the server that asked, that
// also wraps the sentinel a Go caller tests for with errors.Is.
type causedError struct {
	rpc   *jsonrpc.Error
	cause error
}

func (e *causedError) Error() string   { return e.rpc.Error() }
func (e *causedError) Unwrap() []error { return []error{e.rpc, e.cause} }

// client is the host's client (or http.DefaultClient) with a redirect
// policy added: one to another origin fails the request.
func (c *caller) client() *http.Client {
	base := c.opts.Client
	if base == nil {
		base = http.DefaultClient
	}
	cl := *base // the fields are read-only once in use: a copy is safe
	cl.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if o := origin(req.URL); o != origin(via[0].URL) {
			return &redirectError{to: o}
		}
		if base.CheckRedirect != nil {
			return base.CheckRedirect(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &cl
}

// origin is a URL's scheme, host and port, the port made explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// secureForKey reports whether a key may go to u: over https, or over
// plain http to this machine (a local server), never across a network
// in clear.
func secureForKey(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, "https") || loopback(u.Hostname())
}

// loopback reports whether host is this machine by name or address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
