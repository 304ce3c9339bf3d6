package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/plainmcp/plainmcp/internal/redact"
	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/secret"
)

// Revoke revokes tok at its authorization server's revocation endpoint
// (RFC 7009): the refresh token, which ends the grant, then the access
// token. The client authenticates as it did for the token. client nil
// means one with a 30-second timeout; either way, a redirect to another
// origin is refused ([ErrRedirected]). A token whose server offers no
// revocation endpoint is left alone, with no error: forgetting it is all
// a client can do.
func Revoke(ctx context.Context, client *http.Client, tok *Token) error {
	if tok == nil || tok.RevocationEndpoint == "" {
		return nil
	}
	if _, err := safeurl.Parse("the authorization server's revocation_endpoint", tok.RevocationEndpoint); err != nil {
		return fmt.Errorf("oauth: %w", err)
	}
	client = guardRedirects(client)
	c := &clientInfo{id: tok.ClientID, secret: tok.ClientSecret, method: tok.ClientAuth, audience: tok.Issuer}
	if c.method == AuthPrivateKeyJWT {
		c.method = AuthNone // its key is not stored; RFC 7009 lets a public client revoke
	}
	for _, t := range []struct{ value, hint string }{{tok.RefreshToken.Reveal(), "refresh_token"}, {tok.AccessToken.Reveal(), "access_token"}} {
		if t.value == "" {
			continue
		}
		form := url.Values{"token": {t.value}, "token_type_hint": {t.hint}}
		header, err := clientAuthFor(c, form)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, tok.RevocationEndpoint, strings.NewReader(form.Encode()))
		if err != nil {
			return fmt.Errorf("oauth: revocation endpoint %q: %w", quotedURL(tok.RevocationEndpoint), unwrapURLError(err))
		}
		req.Header = header
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if err := revokeOne(client, req, append(sentSecrets(form, header), c.secret)...); err != nil {
			return err
		}
	}
	return nil
}

// revokeOne sends one revocation request: any 2xx is done (RFC 7009
// section 2.2), else the endpoint's error.
func revokeOne(client *http.Client, req *http.Request, secrets ...secret.String) error {
	resp, err := client.Do(req)
	if err != nil {
		err = fmt.Errorf("oauth: calling the revocation endpoint %s: %w", quotedURL(req.URL.String()), unwrapURLError(err))
		return redact.Error(err, secrets...)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	te := &TokenError{Endpoint: "revocation", Status: resp.StatusCode}
	var e struct {
		Code        string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) == nil {
		te.Code = safe.Quote(e.Code, maxErrorCode, secrets...)
		te.Description = safe.Quote(e.Description, maxErrorDescription, secrets...)
	}
	return te
}
