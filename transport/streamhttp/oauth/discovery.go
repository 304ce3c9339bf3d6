package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/internal/safeurl"
)

// resourceMetadata is an MCP server's OAuth protected resource metadata
// (RFC 9728), the fields a client uses.
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
	// The server's DPoP support (RFC 9449 section 5.2 of RFC 9728's
	// registry): the algorithms it takes, and whether it takes only
	// DPoP-bound tokens.
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported"`
	DPoPBoundAccessTokensRequired bool     `json:"dpop_bound_access_tokens_required"`
}

// serverMetadata is an authorization server's metadata (RFC 8414, or
// OpenID Connect Discovery), the fields a client uses.
type serverMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	JWKSURI                           string   `json:"jwks_uri"`
	ScopesSupported                   []string `json:"scopes_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported"`
	DPoPSigningAlgValuesSupported     []string `json:"dpop_signing_alg_values_supported"`
}

// maxMetadata bounds a metadata document or a token endpoint answer.
const maxMetadata = 1 << 20

// resourceMetadataURLs lists where to look for the protected resource
// metadata of server, in the specification's order: the URL a challenge
// named, then the path-inserted well-known URL, then the root one.
func resourceMetadataURLs(server *url.URL, fromChallenge string) []string {
	var out []string
	if fromChallenge != "" {
		out = append(out, fromChallenge)
	}
	const wk = "/.well-known/oauth-protected-resource"
	root := &url.URL{Scheme: server.Scheme, Host: server.Host}
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		out = append(out, root.String()+wk+p)
	}
	return append(out, root.String()+wk)
}

// serverMetadataURLs lists where to look for the metadata of issuer, in the
// specification's order: RFC 8414 then OpenID Connect Discovery, with the
// issuer's path inserted after the well-known prefix, and for OpenID also
// appended to it.
func serverMetadataURLs(issuer *url.URL) []string {
	root := (&url.URL{Scheme: issuer.Scheme, Host: issuer.Host}).String()
	p := strings.TrimSuffix(issuer.EscapedPath(), "/")
	if p == "" {
		return []string{
			root + "/.well-known/oauth-authorization-server",
			root + "/.well-known/openid-configuration",
		}
	}
	return []string{
		root + "/.well-known/oauth-authorization-server" + p,
		root + "/.well-known/openid-configuration" + p,
		root + p + "/.well-known/openid-configuration",
	}
}

// getJSON fetches a metadata document into v. found is false when the
// server answered with a client error status: the caller tries its next
// location.
func getJSON(ctx context.Context, client *http.Client, u string, v any) (found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, fmt.Errorf("oauth: metadata URL %q: %w", quotedURL(u), err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("oauth: fetching %s: %w", quotedURL(u), unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadata))
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		// The status code, not resp.Status: its reason phrase is the
		// server's text, control characters and all.
		return false, fmt.Errorf("oauth: fetching %s: %d %s", quotedURL(u), resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetadata)).Decode(v); err != nil {
		return false, fmt.Errorf("oauth: decoding %s: %w", quotedURL(u), err)
	}
	return true, nil
}

// discoverResource finds the protected resource metadata of server and
// checks that it describes server. It returns ErrNoMetadata when no
// location has it.
func discoverResource(ctx context.Context, client *http.Client, server *url.URL, fromChallenge string) (*resourceMetadata, error) {
	if fromChallenge != "" {
		if err := checkNamed("the resource_metadata URL of the server's challenge", fromChallenge, server); err != nil {
			return nil, err
		}
	}
	for _, u := range resourceMetadataURLs(server, fromChallenge) {
		var m resourceMetadata
		found, err := getJSON(ctx, client, u, &m)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if !resourceCovers(m.Resource, server) {
			return nil, fmt.Errorf("%w: %q is not the server %q", ErrResourceMismatch, safe.Line(m.Resource, maxQuoted), quotedURL(server.String()))
		}
		if len(m.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("oauth: the protected resource metadata at %s names no authorization server", quotedURL(u))
		}
		for i, as := range m.AuthorizationServers {
			what := fmt.Sprintf("authorization_servers[%d] of the protected resource metadata at %s", i, quotedURL(u))
			if err := checkNamed(what, as, server); err != nil {
				return nil, err
			}
		}
		return &m, nil
	}
	return nil, fmt.Errorf("%w: no protected resource metadata for %s", ErrNoMetadata, quotedURL(server.String()))
}

// resourceCovers reports whether the resource identifier res names server:
// the same origin, and a path that is server's path or a parent of it (a
// whole segment at a time).
func resourceCovers(res string, server *url.URL) bool {
	r, err := url.Parse(res)
	if err != nil || r.Fragment != "" || !strings.EqualFold(r.Scheme, server.Scheme) || !strings.EqualFold(r.Host, server.Host) {
		return false
	}
	rp := strings.TrimSuffix(r.Path, "/")
	sp := strings.TrimSuffix(server.Path, "/")
	return rp == sp || strings.HasPrefix(sp, rp+"/")
}

// discoverServer fetches the metadata of the authorization server issuer,
// which must name exactly that issuer. It returns ErrNoMetadata when no
// location has it.
func discoverServer(ctx context.Context, client *http.Client, issuer string) (*serverMetadata, error) {
	iu, err := safeurl.Parse("the authorization server", issuer)
	if err != nil {
		return nil, fmt.Errorf("oauth: %w", err)
	}
	for _, u := range serverMetadataURLs(iu) {
		var m serverMetadata
		found, err := getJSON(ctx, client, u, &m)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if err := m.checkURLs(iu); err != nil {
			return nil, err
		}
		if m.Issuer != issuer {
			return nil, fmt.Errorf("%w: the metadata at %s is for %q, not %q", ErrIssuerMismatch, quotedURL(u), safe.Line(m.Issuer, maxQuoted), safe.Line(issuer, maxQuoted))
		}
		if err := m.check(iu); err != nil {
			return nil, err
		}
		return &m, nil
	}
	return nil, fmt.Errorf("%w: no authorization server metadata for %s", ErrNoMetadata, quotedURL(issuer))
}

// fetchServerMetadata reads authorization server metadata from the URL a
// host configured, which names the issuer it trusts.
func fetchServerMetadata(ctx context.Context, client *http.Client, u string) (*serverMetadata, error) {
	at, err := safeurl.Parse("the configured authorization server metadata URL", u)
	if err != nil {
		return nil, fmt.Errorf("oauth: %w", err)
	}
	var m serverMetadata
	found, err := getJSON(ctx, client, u, &m)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("%w: nothing at the configured %s", ErrNoMetadata, quotedURL(u))
	case m.Issuer == "":
		return nil, fmt.Errorf("oauth: the metadata at %s names no issuer", quotedURL(u))
	}
	if err := m.check(at); err != nil {
		return nil, err
	}
	return &m, nil
}

// check refuses metadata no grant can use, and metadata with a URL the
// client must not use or open; by is where the metadata came from.
func (m *serverMetadata) check(by *url.URL) error {
	if err := m.checkURLs(by); err != nil {
		return err
	}
	if m.TokenEndpoint == "" {
		return fmt.Errorf("oauth: the metadata of %q lacks a token endpoint", safe.Line(m.Issuer, maxQuoted))
	}
	return nil
}

// checkURLs refuses metadata any of whose URLs is not https, or http on a
// loopback host, or is on this machine when by, where the metadata came
// from, is not ([ErrUnsafeURL]), before anything uses or opens one. The
// error names the member, never the URL (its query could be anything).
func (m *serverMetadata) checkURLs(by *url.URL) error {
	if m.Issuer != "" {
		if _, err := safeurl.Parse("the authorization server's issuer", m.Issuer); err != nil {
			return fmt.Errorf("oauth: %w", err)
		}
	}
	for _, e := range []struct{ name, url string }{
		{"authorization_endpoint", m.AuthorizationEndpoint},
		{"token_endpoint", m.TokenEndpoint},
		{"registration_endpoint", m.RegistrationEndpoint},
		{"revocation_endpoint", m.RevocationEndpoint},
		{"jwks_uri", m.JWKSURI},
	} {
		if e.url == "" {
			continue
		}
		if err := checkNamed("the authorization server's "+e.name, e.url, by); err != nil {
			return err
		}
	}
	return nil
}

// checkCodeFlow refuses metadata the authorization code flow cannot use:
// no authorization endpoint, or no PKCE with S256. assumed is true for
// the default endpoints of a 2025-03-26 server without metadata, which
// that specification required to support PKCE.
func (m *serverMetadata) checkCodeFlow(assumed bool) error {
	if m.AuthorizationEndpoint == "" {
		return fmt.Errorf("oauth: the metadata of %q lacks an authorization endpoint", safe.Line(m.Issuer, maxQuoted))
	}
	if !assumed && !slices.Contains(m.CodeChallengeMethodsSupported, "S256") {
		return fmt.Errorf("%w (issuer %q)", ErrNoPKCE, safe.Line(m.Issuer, maxQuoted))
	}
	return nil
}
