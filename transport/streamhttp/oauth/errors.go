package oauth

// This file holds the package's errors: the sentinels to match with
// errors.Is and the error types of the endpoints' answers.

import (
	"errors"
	"fmt"

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
	// ErrState: an authorization response's state is not the one the
	// flow sent.
	ErrState = errors.New("oauth: the authorization response's state does not match")
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

// Errors of a renewal; match them with errors.Is.
var (
	// ErrNoUser: the server needs the user to authorize the client, and
	// there is no user step. Nothing was registered for it.
	ErrNoUser = errors.New("oauth: the server needs the user to authorize the client, and there is no user step")
	// ErrUserStepTimeout: the user did not finish the authorization
	// within Config.UserStepTimeout.
	ErrUserStepTimeout = errors.New("oauth: the user did not finish authorizing in time")
)

// A TokenError is an error answer of a token or registration endpoint
// (RFC 6749 section 5.2). It quotes what the server said, never what we
// sent.
type TokenError struct {
	Endpoint    string // which endpoint: "token" or "registration"
	Status      int
	Code        string // the "error" member, e.g. "invalid_grant"
	Description string // the "error_description" member
}

func (e *TokenError) Error() string {
	s := fmt.Sprintf("oauth: the %s endpoint answered %d", e.Endpoint, e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}

// An AuthorizationError is the authorization server's refusal, brought
// back by the user's browser in the redirect (RFC 6749 section 4.1.2.1):
// the user denied access (access_denied), or the request was refused.
type AuthorizationError struct {
	Code        string // the "error" parameter, e.g. "access_denied"
	Description string // the "error_description" parameter
}

func (e *AuthorizationError) Error() string {
	s := "oauth: the authorization server refused: " + e.Code
	if e.Code == "access_denied" {
		s = "oauth: access was denied at the authorization server (access_denied)"
	}
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}
