package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/internal/safeurl"
)

// guardRedirects is a copy of c (nil: a client with a 30-second timeout)
// whose redirects keep the secrets of OAuth requests where they belong.
// net/http's client, asked to follow a 307 or 308, sends the body again
// (the code, the PKCE verifier, a refresh token, a client secret or
// assertion), and keeps the Authorization header (client_secret_basic)
// for another port of the same host or a subdomain; the answer it brings
// back would be taken for the token endpoint's. So:
//
//   - a redirect to a URL that is not https, or http on a loopback host,
//     is never followed ([ErrUnsafeURL]): a metadata document fetched over
//     plain http could be replaced on the way; nor one from a host that is
//     not on this machine to one that is;
//   - a redirect of anything but a GET (a token, registration or
//     revocation request) to another origin is never followed
//     ([ErrRedirected]); a metadata GET, which carries nothing secret, may
//     move to another origin, its content still checked (issuer,
//     resource).
//
// Anything else is left to c's CheckRedirect, or to net/http's limit of
// 10 redirects.
func guardRedirects(c *http.Client) *http.Client {
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second}
	}
	g := *c // the caller's client is not modified
	next := c.CheckRedirect
	g.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := safeurl.CheckNamed("the target of a redirect", req.URL, via[len(via)-1].URL); err != nil {
			return err
		}
		if first := via[0]; first.Method != http.MethodGet && !sameOrigin(req.URL, first.URL) {
			return fmt.Errorf("%w (%s to %s://%s)", ErrRedirected, first.Method, req.URL.Scheme, safe.Line(req.URL.Host, 100))
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("oauth: stopped after 10 redirects")
		}
		return nil
	}
	return &g
}
