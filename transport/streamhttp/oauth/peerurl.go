package oauth

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/internal/safeurl"
)

// This file is what the package does with the URLs and the text a server
// or an authorization server names: checks a URL before any request goes
// to it, and quotes one in an error only redacted and bounded.

// checkNamed refuses a URL named by a peer at by that is not https or
// http on loopback, or that is on this machine when by is not
// (safeurl.CheckNamed): a remote server's challenge or metadata may not
// send discovery, token requests or the user's browser to the services
// listening on this machine.
func checkNamed(what, raw string, by *url.URL) error {
	u, err := safeurl.Parse(what, raw)
	if err == nil {
		err = safeurl.CheckNamed(what, u, by)
	}
	if err != nil {
		return fmt.Errorf("oauth: %w", err)
	}
	return nil
}

// maxQuoted bounds a URL, an issuer or a token type a server sent that
// an error quotes.
const maxQuoted = 200

// quotedURL is u without its user info, query and fragment, cut to
// maxQuoted bytes (a server chooses its metadata URLs and issuers).
func quotedURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(malformed URL)"
	}
	p.User = nil
	if p.RawQuery != "" {
		p.RawQuery = "…"
	}
	p.Fragment = ""
	return safe.Line(p.String(), maxQuoted)
}

// unwrapURLError drops the *url.Error wrapper, whose text repeats the
// whole URL; the callers name the URL themselves, redacted.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
