package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"
	"github.com/plainmcp/plainmcp/secret"
)

// clientFor is the client's identity at the server m describes: the
// configured client ID, a client ID metadata document URL when the server
// accepts one, or a registration for redirect, made once per
// authorization server and redirect URL and kept in a [ClientStore].
func (a *Authorizer) clientFor(ctx context.Context, m *serverMetadata, redirect string) (*clientInfo, error) {
	if a.cfg.ClientID != "" {
		return a.configuredClient(m), nil
	}
	if a.cfg.ClientMetadataURL != "" && m.ClientIDMetadataDocumentSupported {
		return &clientInfo{id: a.cfg.ClientMetadataURL, method: AuthNone}, nil
	}
	issuer := m.Issuer
	if issuer == "" {
		issuer = m.TokenEndpoint
	}
	key := issuer + " " + redirect
	a.mu.Lock()
	c := a.clients[key]
	a.mu.Unlock()
	if c != nil {
		return c, nil
	}
	c, err := a.storedOrRegistered(ctx, m, issuer, redirect)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.clients[key] = c
	a.mu.Unlock()
	return c, nil
}

// configuredClient is the pre-registered client of the config.
func (a *Authorizer) configuredClient(m *serverMetadata) *clientInfo {
	method := a.cfg.TokenAuthMethod
	switch {
	case method != "":
	case !a.cfg.SigningKey.IsZero():
		method = AuthPrivateKeyJWT
	default:
		method = pickMethod(m.TokenEndpointAuthMethodsSupported, !a.cfg.ClientSecret.IsZero())
	}
	aud := m.Issuer
	if aud == "" {
		aud = m.TokenEndpoint
	}
	return &clientInfo{id: a.cfg.ClientID, secret: a.cfg.ClientSecret, method: method, key: a.cfg.SigningKey, audience: aud}
}

// storedOrRegistered is the client the store kept for issuer and
// redirect, else a new registration, which it keeps.
func (a *Authorizer) storedOrRegistered(ctx context.Context, m *serverMetadata, issuer, redirect string) (*clientInfo, error) {
	cs, _ := a.store.(ClientStore)
	if cs != nil {
		if sc, err := cs.LoadClient(ctx, issuer, redirect); err == nil && sc != nil && sc.ID != "" {
			return &clientInfo{id: sc.ID, secret: sc.Secret, method: sc.AuthMethod, audience: issuer}, nil
		}
	}
	if m.RegistrationEndpoint == "" {
		return nil, errors.New("oauth: the authorization server offers no registration and the config has no client ID")
	}
	c, err := a.register(ctx, m, redirect)
	if err != nil {
		return nil, err
	}
	if cs != nil {
		reg := &Client{ID: c.id, Secret: c.secret, AuthMethod: c.method, Registered: time.Now()}
		if err := cs.SaveClient(ctx, issuer, redirect, reg); err != nil && logging.Usable(a.cfg.Logger) != nil {
			a.cfg.Logger.Warn("oauth: storing the registered client failed", "err", err)
		}
	}
	return c, nil
}

// register registers the client dynamically (RFC 7591).
func (a *Authorizer) register(ctx context.Context, m *serverMetadata, redirect string) (*clientInfo, error) {
	method := pickMethod(m.TokenEndpointAuthMethodsSupported, true)
	appType := "web"
	if r, err := url.Parse(redirect); err == nil && isLoopback(r.Hostname()) {
		appType = "native"
	}
	body, err := json.Marshal(map[string]any{
		"client_name":                a.cfg.ClientName,
		"redirect_uris":              []string{redirect},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
		"application_type":           appType,
	})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("oauth: registration endpoint %q: %w", quotedURL(m.RegistrationEndpoint), unwrapURLError(err))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	var out struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		Method       string `json:"token_endpoint_auth_method"`
	}
	if _, err := a.exchange(req, "registration", &out); err != nil {
		return nil, err
	}
	if out.ClientID == "" {
		return nil, fmt.Errorf("oauth: the registration endpoint returned no client_id")
	}
	c := &clientInfo{id: out.ClientID, secret: secret.New(out.ClientSecret), method: out.Method}
	if c.method == "" {
		c.method = method
	}
	if c.secret.IsZero() {
		c.method = AuthNone
	}
	return c, nil
}
