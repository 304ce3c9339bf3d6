package oauth

import (
	"errors"

	"github.com/plainmcp/plainmcp/internal/safeurl"
)

// Errors the discovery and the flow wrap; match them with errors.Is.
var (
	// ErrNoMetadata: no metadata document was found where the
	// specification says to look.
	ErrNoMetadata = errors.New("oauth: no metadata found")
	// ErrResourceMismatch: the protected resource metadata names a
	// resource other than the MCP server.
	ErrResourceMismatch = errors.New("oauth: the protected resource metadata is for another resource")
	// ErrIssuerMismatch: authorization server metadata, or an
	// authorization response's iss, names another issuer.
	ErrIssuerMismatch = errors.New("oauth: issuer mismatch")
	// ErrNoPKCE: the authorization server does not offer PKCE with S256.
	ErrNoPKCE = errors.New("oauth: the authorization server does not support PKCE S256")
	// ErrUnsafeURL: a URL the client was given — an endpoint in metadata,
	// an authorization server a resource names, a metadata URL, the
	// redirect URL — is not https, or http on a loopback host. A hostile
	// MCP server chooses its authorization server, and a javascript:,
	// file: or custom-scheme URL handed to a browser or an OS opener runs
	// something on the user's machine; such a URL is refused before any
	// request or user step.
	ErrUnsafeURL = safeurl.ErrUnsafe
	// ErrRedirected: an endpoint redirected a request that carries
	// credentials (a token, registration or revocation request) to another
	// origin. Such a redirect is never followed: the request's body and
	// headers hold the code, the PKCE verifier, a refresh token or the
	// client's secret.
	ErrRedirected = errors.New("oauth: an endpoint redirected a request with credentials to another origin")
)
