package oauth

import (
	"context"
	"fmt"
	"net/url"
)

// clientCredentials gets a token with the client credentials grant (the
// MCP client credentials extension): the configured client authenticates
// itself, with no user step.
func (a *Authorizer) clientCredentials(ctx context.Context, g *grant, scope string) (*Token, *grant, error) {
	g.scope = scope
	var err error
	if g.client, err = a.clientFor(ctx, g.meta, ""); err != nil {
		return nil, nil, err
	}
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {g.resource}}
	if scope != "" {
		form.Set("scope", scope)
	}
	tok, err := a.requestToken(ctx, g.meta.TokenEndpoint, g.client, form, g.dpopKey)
	if err != nil {
		return nil, nil, err
	}
	return tok, g, nil
}

// jwtBearerGrant is the grant_type of RFC 7523's JWT bearer grant.
const jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// jwtBearer gets a token with the JWT bearer grant (RFC 7523 section
// 2.1) and the assertion the host gives for the authorization server: the
// MCP workload identity extension. The client is the configured one, if
// any; a refusal is returned as it is.
func (a *Authorizer) jwtBearer(ctx context.Context, g *grant, scope string) (*Token, *grant, error) {
	g.scope = scope
	g.client = &clientInfo{id: a.cfg.ClientID, secret: a.cfg.ClientSecret, method: AuthNone}
	if a.cfg.ClientID != "" {
		var err error
		if g.client, err = a.clientFor(ctx, g.meta, ""); err != nil {
			return nil, nil, err
		}
	}
	issuer := g.meta.Issuer
	if issuer == "" {
		issuer = g.meta.TokenEndpoint
	}
	actx := context.WithValue(ctx, assertionKey{}, assertionFor{resource: g.resource, scope: scope})
	assertion, err := a.cfg.JWTBearerAssertion(actx, issuer)
	if err != nil {
		return nil, nil, fmt.Errorf("oauth: getting the JWT bearer assertion: %w", err)
	}
	form := url.Values{"grant_type": {jwtBearerGrant}, "assertion": {assertion.Reveal()}, "resource": {g.resource}}
	if scope != "" {
		form.Set("scope", scope)
	}
	tok, err := a.requestToken(ctx, g.meta.TokenEndpoint, g.client, form, g.dpopKey)
	if err != nil {
		return nil, nil, err
	}
	return tok, g, nil
}
