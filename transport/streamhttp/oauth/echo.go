package oauth

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/plainmcp/plainmcp/secret"
)

// A token, registration or revocation endpoint may echo the request it
// got — in an error_description, in a status line — and a hostile or
// careless one does. What it says is quoted in errors (TokenError) and
// logs only with every secret the client sent or holds redacted: the
// authorization code, the PKCE verifier, refresh and access tokens, client
// secrets, client and grant assertions, subject tokens, DPoP proofs. The
// quotes are bounded too, and made printable (safe.Quote).

// Bounds of what a TokenError quotes from a server.
const (
	maxErrorCode        = 64
	maxErrorDescription = 300
)

// publicParams are the request parameters that are not secrets: what an
// error may well name (a scope, a resource, a redirect URL). Every other
// parameter of a request is taken for a secret.
var publicParams = map[string]bool{
	"grant_type": true, "redirect_uri": true, "resource": true, "scope": true, "client_id": true,
	"client_assertion_type": true, "requested_token_type": true, "subject_token_type": true, "audience": true,
}

// sentSecrets is what a request to an OAuth endpoint carries that its
// answer must not repeat: every form value but publicParams', and the
// Authorization and DPoP headers (whole, and the credential after the
// scheme).
func sentSecrets(form url.Values, header http.Header) []secret.String {
	var out []secret.String
	for k, vs := range form {
		if publicParams[k] {
			continue
		}
		for _, v := range vs {
			out = append(out, secret.New(v))
		}
	}
	for _, name := range []string{"Authorization", "DPoP"} {
		for _, v := range header.Values(name) {
			out = append(out, secret.New(v))
			if _, cred, ok := strings.Cut(v, " "); ok {
				out = append(out, secret.New(cred))
			}
		}
	}
	return out
}

// held is every secret the Authorizer holds: the current token's, the
// configured client secret and those of the clients it registered.
func (a *Authorizer) held() []secret.String {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := []secret.String{a.cfg.ClientSecret}
	if t := a.tok; t != nil {
		out = append(out, t.AccessToken, t.RefreshToken, t.ClientSecret)
	}
	for _, c := range a.clients {
		out = append(out, c.secret)
	}
	return out
}
