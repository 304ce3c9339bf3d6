package oauth

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/secret"
)

// Token exchange (RFC 8693) names used by enterprise-managed
// authorization.
const (
	tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
	idTokenType        = "urn:ietf:params:oauth:token-type:id_token"
	idJAGTokenType     = "urn:ietf:params:oauth:token-type:id-jag"
)

// An IDJAG gets Identity Assertion JWT Authorization Grants (ID-JAGs) from
// an enterprise identity provider, for the MCP enterprise-managed
// authorization extension: its Assertion method is a
// Config.JWTBearerAssertion. Each call is one RFC 8693 token exchange at
// the IdP's token endpoint: the user's ID token from the IdP goes in as
// the subject_token (of type id_token), and an ID-JAG (type id-jag) comes
// back for the authorization server's issuer as audience and the MCP
// server's resource; the Authorizer then presents it to the authorization
// server with the JWT bearer grant. The ID-JAG is not inspected: it is
// for the authorization server to verify.
type IDJAG struct {
	// TokenEndpoint is the IdP's token endpoint.
	TokenEndpoint string

	// IDToken returns the user's ID token from the IdP, the subject of
	// the exchange.
	IDToken func(ctx context.Context) (secret.String, error)

	// ClientID and ClientSecret are the client's credentials at the IdP
	// (not at the authorization server, which has Config's).
	ClientID     string
	ClientSecret secret.String

	// AuthMethod is how the client authenticates at the IdP: AuthBasic,
	// AuthPost or AuthNone (client_id in the form, when there is one).
	// Empty means AuthBasic with a ClientSecret, else AuthNone.
	AuthMethod string

	// Resource is the resource parameter; empty means the resource the
	// Authorizer asks the authorization server for (the protected resource
	// metadata's, else the server URL).
	Resource string

	// Scope is the scope parameter; empty means the scope the Authorizer
	// asks for, if any.
	Scope string

	// HTTPClient carries the exchange; nil means a client with a
	// 30-second timeout. Either way, a redirect of the exchange to another
	// origin is refused ([ErrRedirected]).
	HTTPClient *http.Client
}

// assertionKey is the context key under which the Authorizer tells a
// JWTBearerAssertion what it is getting a token for.
type assertionKey struct{}

type assertionFor struct{ resource, scope string }

// Assertion exchanges the ID token for an ID-JAG whose audience is the
// authorization server issuer.
func (x *IDJAG) Assertion(ctx context.Context, issuer string) (secret.String, error) {
	if x.TokenEndpoint == "" || x.IDToken == nil {
		return secret.String{}, errors.New("oauth: IDJAG needs a TokenEndpoint and an IDToken")
	}
	idToken, err := x.IDToken(ctx)
	if err != nil {
		return secret.String{}, fmt.Errorf("oauth: getting the ID token: %w", err)
	}
	form := x.exchangeForm(ctx, issuer, idToken)
	header := http.Header{}
	if err := x.authenticate(form, header); err != nil {
		return secret.String{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.TokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return secret.String{}, fmt.Errorf("oauth: IdP token endpoint %q: %w", quotedURL(x.TokenEndpoint), unwrapURLError(err))
	}
	req.Header = header
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	client := guardRedirects(x.HTTPClient)
	var out struct {
		AccessToken     string `json:"access_token"`
		IssuedTokenType string `json:"issued_token_type"`
	}
	if _, err := exchange(client, req, "IdP token", &out, append(sentSecrets(form, header), x.ClientSecret)...); err != nil {
		return secret.String{}, err
	}
	if out.IssuedTokenType != idJAGTokenType {
		return secret.String{}, fmt.Errorf("oauth: the IdP issued a token of type %q, not an ID-JAG", safe.Line(out.IssuedTokenType, maxQuoted))
	}
	if out.AccessToken == "" {
		return secret.String{}, errors.New("oauth: the IdP's token exchange answer has no access_token")
	}
	return secret.New(out.AccessToken), nil
}

// exchangeForm is the token exchange's form: the ID token for an ID-JAG
// whose audience is issuer, for the resource and scope the IDJAG names or,
// if it names none, those the authorization asks for (ctx).
func (x *IDJAG) exchangeForm(ctx context.Context, issuer string, idToken secret.String) url.Values {
	want, _ := ctx.Value(assertionKey{}).(assertionFor)
	resource, scope := x.Resource, x.Scope
	if resource == "" {
		resource = want.resource
	}
	if scope == "" {
		scope = want.scope
	}
	form := url.Values{
		"grant_type":           {tokenExchangeGrant},
		"requested_token_type": {idJAGTokenType},
		"subject_token":        {idToken.Reveal()},
		"subject_token_type":   {idTokenType},
		"audience":             {issuer},
	}
	if resource != "" {
		form.Set("resource", resource)
	}
	if scope != "" {
		form.Set("scope", scope)
	}
	return form
}

// authenticate adds the client's credentials to the request, the way
// AuthMethod says (basic when a secret is set and it says nothing).
func (x *IDJAG) authenticate(form url.Values, header http.Header) error {
	method := x.AuthMethod
	if method == "" {
		method = AuthNone
		if !x.ClientSecret.IsZero() {
			method = AuthBasic
		}
	}
	switch method {
	case AuthBasic:
		cred := url.QueryEscape(x.ClientID) + ":" + url.QueryEscape(x.ClientSecret.Reveal())
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	case AuthPost:
		form.Set("client_id", x.ClientID)
		form.Set("client_secret", x.ClientSecret.Reveal())
	case AuthNone:
		if x.ClientID != "" {
			form.Set("client_id", x.ClientID)
		}
	default:
		return fmt.Errorf("oauth: IDJAG.AuthMethod %q is not supported", method)
	}
	return nil
}
