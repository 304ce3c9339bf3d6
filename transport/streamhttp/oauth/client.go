package oauth

import (
	"context"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/internal/redact"
	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/secret"
)

// Token endpoint authentication methods (RFC 7591 section 2), for
// Config.TokenAuthMethod and IDJAG.AuthMethod. AuthPrivateKeyJWT signs a
// JWT assertion with the client's key (RFC 7523 section 2.2).
const (
	AuthBasic         = "client_secret_basic"
	AuthPost          = "client_secret_post"
	AuthNone          = "none"
	AuthPrivateKeyJWT = "private_key_jwt"
)

// clientInfo is the client's identity at one authorization server.
type clientInfo struct {
	id       string
	secret   secret.String
	method   string                      // token endpoint authentication method
	key      secret.Value[crypto.Signer] // for AuthPrivateKeyJWT
	audience string                      // of its assertions: the issuer
}

// pickMethod chooses a token endpoint authentication method among those
// the server supports (RFC 8414's default is client_secret_basic).
func pickMethod(supported []string, haveSecret bool) string {
	if len(supported) == 0 {
		supported = []string{AuthBasic}
	}
	if haveSecret {
		for _, m := range []string{AuthBasic, AuthPost} {
			if slices.Contains(supported, m) {
				return m
			}
		}
	}
	if slices.Contains(supported, AuthNone) {
		return AuthNone
	}
	return supported[0]
}

func isLoopback(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}

// maxExpiresIn is the largest expires_in, in seconds, a time.Duration
// holds.
const maxExpiresIn = int64(math.MaxInt64 / time.Second)

// tokenResponse is a token endpoint's successful answer (RFC 6749 section
// 5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// requestToken posts form to the token endpoint with the client's
// authentication and returns the token issued. With dpop, the request
// carries a DPoP proof (RFC 9449 section 5) and asks for a DPoP-bound
// token; an answer of use_dpop_nonce is retried once with the server's
// nonce (section 8).
func (a *Authorizer) requestToken(ctx context.Context, endpoint string, c *clientInfo, form url.Values, dpopKey crypto.Signer) (*Token, error) {
	var out tokenResponse
	for try := 0; ; try++ {
		nonce, err := a.postToken(ctx, endpoint, c, form, dpopKey, &out)
		var te *TokenError
		if dpopKey != nil && try == 0 && nonce != "" && errors.As(err, &te) && te.Code == "use_dpop_nonce" {
			continue
		}
		if err != nil {
			return nil, err
		}
		break
	}
	if out.AccessToken == "" {
		return nil, fmt.Errorf("oauth: the token endpoint returned no access_token")
	}
	typ := "Bearer"
	switch {
	case strings.EqualFold(out.TokenType, "Bearer"):
	case dpopKey != nil && strings.EqualFold(out.TokenType, "DPoP"):
		typ = "DPoP"
	default:
		return nil, fmt.Errorf("oauth: the token endpoint returned a token of type %q", safe.Line(out.TokenType, maxQuoted))
	}
	t := &Token{AccessToken: secret.New(out.AccessToken), RefreshToken: secret.New(out.RefreshToken), Scope: out.Scope, Type: typ, Obtained: time.Now()}
	if out.ExpiresIn > 0 {
		// At most what a Duration holds (292 years): past that, the
		// product wrapped to an expiry in the past, and every request
		// refreshed the token.
		t.Expiry = time.Now().Add(time.Duration(min(out.ExpiresIn, maxExpiresIn)) * time.Second)
	}
	return t, nil
}

// postToken sends one token request and decodes the answer into out. It
// returns the DPoP-Nonce the server sent, if any, having kept it for the
// next proof to the endpoint.
func (a *Authorizer) postToken(ctx context.Context, endpoint string, c *clientInfo, form url.Values, dpopKey crypto.Signer, out *tokenResponse) (string, error) {
	form = maps.Clone(form)
	header, err := clientAuthFor(c, form)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("oauth: token endpoint %q: %w", quotedURL(endpoint), unwrapURLError(err))
	}
	if dpopKey != nil {
		a.mu.Lock()
		nonce := a.asNonces[endpoint]
		a.mu.Unlock()
		p, err := proof(dpopKey, http.MethodPost, req.URL, "", nonce)
		if err != nil {
			return "", err
		}
		header.Set("DPoP", p)
	}
	req.Header = header
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	h, err := a.exchange(req, "token", out, append(sentSecrets(form, header), c.secret)...)
	nonce := h.Get("DPoP-Nonce")
	if dpopKey != nil && nonce != "" {
		a.mu.Lock()
		a.asNonces[endpoint] = nonce
		a.mu.Unlock()
	}
	return nonce, err
}

// clientAuthFor authenticates client c in the form of a token request,
// or in the headers it returns (RFC 6749 section 2.3).
func clientAuthFor(c *clientInfo, form url.Values) (http.Header, error) {
	header := http.Header{}
	switch c.method {
	case AuthBasic:
		// RFC 6749 section 2.3.1: form-encode each part before Base64.
		cred := url.QueryEscape(c.id) + ":" + url.QueryEscape(c.secret.Reveal())
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	case AuthPost:
		form.Set("client_id", c.id)
		form.Set("client_secret", c.secret.Reveal())
	case AuthPrivateKeyJWT:
		assertion, err := clientAssertion(c.key.Reveal(), c.id, c.audience)
		if err != nil {
			return nil, err
		}
		form.Set("client_id", c.id)
		form.Set("client_assertion_type", clientAssertionType)
		form.Set("client_assertion", assertion)
	default:
		if c.id != "" {
			form.Set("client_id", c.id)
		}
	}
	return header, nil
}

// exchange sends req to an OAuth endpoint and decodes its JSON answer
// into out, or returns a *TokenError. sent are the secrets req carries;
// they and those the Authorizer holds are redacted from what the answer
// says (echo.go).
func (a *Authorizer) exchange(req *http.Request, endpoint string, out any, sent ...secret.String) (http.Header, error) {
	return exchange(a.http, req, endpoint, out, append(sent, a.held()...)...)
}

// exchange sends req with client to an OAuth endpoint and decodes its JSON
// answer into out, or returns a *TokenError, with secrets redacted from
// every error.
func exchange(client *http.Client, req *http.Request, endpoint string, out any, secrets ...secret.String) (http.Header, error) {
	resp, err := client.Do(req)
	if err != nil {
		err = fmt.Errorf("oauth: calling the %s endpoint %s: %w", endpoint, quotedURL(req.URL.String()), unwrapURLError(err))
		return http.Header{}, redact.Error(err, secrets...)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if err != nil {
		return resp.Header, fmt.Errorf("oauth: reading the %s endpoint's answer: %w", endpoint, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		te := &TokenError{Endpoint: endpoint, Status: resp.StatusCode}
		var e struct {
			Code        string `json:"error"`
			Description string `json:"error_description"`
		}
		if json.Unmarshal(body, &e) == nil {
			te.Code = safe.Quote(e.Code, maxErrorCode, secrets...)
			te.Description = safe.Quote(e.Description, maxErrorDescription, secrets...)
		}
		return resp.Header, te
	}
	if err := json.Unmarshal(body, out); err != nil {
		return resp.Header, fmt.Errorf("oauth: decoding the %s endpoint's answer (%d bytes): %v", endpoint, len(body), jsonErrorKind(err))
	}
	return resp.Header, nil
}

// jsonErrorKind describes a JSON decoding error without quoting the
// document, which may hold tokens.
func jsonErrorKind(err error) string {
	switch e := err.(type) {
	case *json.SyntaxError:
		return "syntax error at byte " + strconv.FormatInt(e.Offset, 10)
	case *json.UnmarshalTypeError:
		return "wrong type for " + e.Field
	}
	return "malformed JSON"
}
