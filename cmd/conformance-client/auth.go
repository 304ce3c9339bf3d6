package main

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// authorizationCode runs a scenario of the authorization code flow: the
// session authorizes on the server's first 401 (with the pre-registered
// client of the scenario's context, if any), lists the tools and calls
// each of them. The suite's authorization endpoint redirects at once, so
// the user step is a GET that does not follow the redirect.
func authorizationCode(ctx context.Context, sc *scenarioEnv) error {
	return authorized(ctx, sc, oauth.Config{
		RedirectURL:       "http://localhost:3000/callback",
		ClientName:        "plainmcp-conformance-client",
		ClientMetadataURL: "https://conformance-test.local/client-metadata.json",
		UserStep:          oauth.UserStepFunc(redirectOnce),
	})
}

// clientCredentials runs a scenario of the client credentials extension
// with the credentials the scenario hands over: a secret, or a private key
// (PKCS #8 PEM) for private_key_jwt.
func clientCredentials(ctx context.Context, sc *scenarioEnv) error {
	cfg := oauth.Config{ClientCredentials: true}
	if raw, ok := sc.context["private_key_pem"]; ok {
		var pemText string
		if err := json.Unmarshal(raw, &pemText); err != nil {
			return err
		}
		block, _ := pem.Decode([]byte(pemText))
		if block == nil {
			return errors.New("private_key_pem holds no PEM block")
		}
		key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return fmt.Errorf("private_key_pem: %w", err)
		}
		signer, ok := key.(crypto.Signer)
		if !ok {
			return errors.New("private_key_pem is not a signing key")
		}
		cfg.SigningKey = secret.New(signer)
	}
	return authorized(ctx, sc, cfg)
}

// workloadIdentity runs the workload identity extension's scenario: the
// JWT bearer grant with the workload token the scenario hands over as
// valid_jwt.
func workloadIdentity(ctx context.Context, sc *scenarioEnv) error {
	raw, ok := sc.context["valid_jwt"]
	if !ok {
		return errors.New("the scenario's context has no valid_jwt")
	}
	var jwt string
	if err := json.Unmarshal(raw, &jwt); err != nil {
		return err
	}
	return authorized(ctx, sc, oauth.Config{
		JWTBearerAssertion: func(context.Context, string) (secret.String, error) { return secret.New(jwt), nil },
	})
}

// enterpriseManaged runs the enterprise-managed authorization extension's
// scenario (cross-app access in suite 0.1): the ID token from the context
// is exchanged at the IdP, as the public client idp_client_id, for an
// ID-JAG, which goes to the authorization server in the JWT bearer grant
// as the pre-registered client.
func enterpriseManaged(ctx context.Context, sc *scenarioEnv) error {
	var x oauth.IDJAG
	var idToken string
	for key, dst := range map[string]*string{"idp_token_endpoint": &x.TokenEndpoint, "idp_client_id": &x.ClientID, "idp_id_token": &idToken} {
		raw, ok := sc.context[key]
		if !ok {
			return fmt.Errorf("the scenario's context has no %s", key)
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return err
		}
	}
	x.IDToken = func(context.Context) (secret.String, error) { return secret.New(idToken), nil }
	return authorized(ctx, sc, oauth.Config{JWTBearerAssertion: x.Assertion})
}

// authorized lists and calls the tools with cfg's authorization, taking
// client_id and client_secret from the scenario's context when it has
// them.
func authorized(ctx context.Context, sc *scenarioEnv, cfg oauth.Config) error {
	cfg.ServerURL, cfg.Logger = sc.url, sc.logger
	var clientSecret string
	for key, dst := range map[string]*string{"client_id": &cfg.ClientID, "client_secret": &clientSecret} {
		if raw, ok := sc.context[key]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return err
			}
		}
	}
	if clientSecret != "" {
		cfg.ClientSecret = secret.New(clientSecret)
	}
	auth, err := oauth.New(cfg)
	if err != nil {
		return err
	}
	sc.authorize = auth.RoundTripper
	return callTools(ctx, sc)
}

// redirectOnce fetches the authorization URL and returns the redirect the
// server answers with, unfollowed.
func redirectOnce(ctx context.Context, authURL *url.URL) (*url.URL, error) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := resp.Location()
	if err != nil {
		return nil, errors.New("the authorization endpoint did not redirect")
	}
	return loc, nil
}
