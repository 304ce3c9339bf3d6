// Package oauth authorizes an MCP client at a server's OAuth 2.1
// authorization server, as the MCP specification's authorization section
// describes
// (https://modelcontextprotocol.io/specification/latest/basic/authorization).
// It plugs into the HTTP transport through streamhttp's Config.Authorize:
//
//	auth, err := oauth.New(oauth.Config{
//		ServerURL:   "https://example.com/mcp",
//		RedirectURL: "http://127.0.0.1:8765/callback",
//		UserStep:    browserStep, // opens the URL, captures the redirect
//	})
//	if err != nil {
//		return err
//	}
//	stream, err := streamhttp.Dial(ctx, streamhttp.Config{
//		URL:       "https://example.com/mcp",
//		Authorize: auth.RoundTripper,
//	})
//
// Only programs that speak HTTP import this package; the stdio path never
// links it.
//
// # The flow
//
// Nothing happens until the server answers 401. Then, in order:
//
//  1. The Bearer challenge of WWW-Authenticate is parsed
//     for resource_metadata, scope and error.
//  2. The protected resource metadata (RFC 9728) is fetched from the URL
//     the challenge named, else from the well-known URL with the server's
//     path inserted, else from the root well-known URL. Its resource must
//     name the server ([ErrResourceMismatch]). A server with none is taken
//     for a 2025-03-26 server: its origin's authorization server metadata,
//     else the default /authorize, /token and /register endpoints there.
//  3. The authorization server's metadata is fetched from RFC 8414's
//     well-known URL, then OpenID Connect Discovery's, with the issuer's
//     path inserted (and, for OpenID, also appended). Its issuer must be
//     exactly the issuer asked for ([ErrIssuerMismatch]), and it must
//     offer PKCE with S256 ([ErrNoPKCE]).
//  4. The client's identity: the configured client ID and secret, else
//     the client ID metadata document URL where the server accepts one,
//     else dynamic client registration (RFC 7591), once per server.
//  5. The user step ([UserStep]): the authorization URL carries the PKCE
//     S256 challenge, a fresh state, the RFC 8707 resource, and the scope
//     of the challenge, else the metadata's scopes_supported, else none
//     (offline_access added when the authorization server offers it, with
//     prompt=consent, which OpenID Connect requires for it). The
//     redirect must carry the same state ([ErrState]) and, per RFC 9207,
//     the issuer's iss when present or advertised.
//  6. The token request sends the code, the verifier and the resource,
//     authenticated as client_secret_basic, client_secret_post, none, or
//     private_key_jwt (a JWT assertion signed with Config.SigningKey).
//
// Every URL a challenge or metadata names is checked before any request
// goes to it or any browser opens it: https, or http on loopback, and not
// on this machine when the host that named it is not ([ErrUnsafeURL]). A
// token, registration or revocation request never follows a redirect to
// another origin ([ErrRedirected]).
//
// With Config.ClientCredentials, steps 4 to 6 are one token request with
// the client credentials grant instead (the MCP client credentials
// extension): no user, no PKCE. With Config.JWTBearerAssertion they are
// one request with RFC 7523's JWT bearer grant and the assertion the host
// gives, such as a workload identity token (the MCP workload identity
// extension); a refusal is returned, never retried with another grant.
// For enterprise-managed authorization, an [IDJAG]'s Assertion method is
// that assertion source: an RFC 8693 token exchange at the enterprise
// IdP turns the user's ID token into an ID-JAG for the authorization
// server's issuer and the server's resource.
//
// # DPoP
//
// Where both sides support it — the server answered with a DPoP
// challenge or lists dpop_* fields in its resource metadata, and the
// authorization server advertises ES256 among its
// dpop_signing_alg_values_supported — or Config.DPoPKey is set, tokens
// are DPoP-bound (RFC 9449, the MCP DPoP extension), with a key made for
// the authorization and kept with the token (Token.DPoPKey; FileStore
// keeps it in its 0600 file), so later runs prove the same key. Each
// token request
// carries a proof, and each request to the server the token as
// "Authorization: DPoP" with a fresh proof (htm, htu without query or
// fragment, iat, jti, ath). A use_dpop_nonce answer, from the token
// endpoint or the server, is retried once with the nonce it gave, and the
// nonce goes into the later proofs.
//
// A 403 whose challenge says insufficient_scope authorizes anew for the
// scopes asked for so far plus the challenge's (step-up).
//
// The token goes into the [TokenStore] and the request is sent once more.
// A token that is about to expire is refreshed before use, and a 401 to a
// token that can be refreshed tries a refresh before a new authorization.
//
// # Renewals
//
// A refresh or an authorization (a renewal) runs apart from the request
// that needed it, bounded by Config.UserStepTimeout (five minutes), so
// that a person has the time a person needs whatever the request's
// deadline. At most one runs at a time per Authorizer; requests that need
// one meanwhile join it, each waiting as long as its own context lets it.
// Each request spends at most one refresh, one authorization after a 401
// and one step-up after a 403. A refresh token the authorization server
// refused is not sent again. With a store that is a [Locker] (both stores
// here are), the stored token is reread and refreshed with the store
// locked, so that Authorizers and processes sharing it never refresh one
// refresh token twice, which providers that rotate refresh tokens answer
// by revoking the grant. Without a user step, a server that needs the
// user gets its 401 back, and nothing is registered for it (a
// [ClientStore] keeps registrations for later runs). [Authorizer.Login]
// runs a login when the host chooses.
//
// # Secrets
//
// Tokens, codes, verifiers and client secrets never appear in errors or
// logs: errors quote what an endpoint said ([TokenError]), never what was
// sent, and URLs lose their query.
package oauth
