package streamhttp

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

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
