// Package fakeauth is an OAuth 2.1 authorization server and protected MCP
// endpoint in one, for tests of the authorization flow: discovery (RFC
// 9728, RFC 8414), dynamic client registration, the authorization code
// grant with PKCE S256, refresh, revocation (RFC 7009), and step-up (a
// tools/call refused with 403 insufficient_scope until the token has the
// scope RequireCallScope names). The authorization endpoint consents
// at once and redirects, so a test's "browser" is any HTTP client that
// follows the authorization URL to the redirect.
package fakeauth

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Server is the fake. Its MCP endpoint is URL()+"/mcp".
type Server struct {
	srv *httptest.Server
	mcp http.Handler

	mu         sync.Mutex
	codes      map[string]code   // code -> its PKCE challenge and scope
	tokens     map[string]bool   // valid access tokens
	scopes     map[string]string // the scope each access token was issued for
	refresh    map[string]bool   // valid refresh tokens
	callScope  string            // a tools/call needs a token with it, if set
	revokeCode int               // the revocation endpoint's status, if not 200
	revoked    int               // tokens revoked
	Issued     int               // access tokens issued
	Refused    int               // MCP requests answered 401
	Register   int               // clients registered
}

// code is an authorization code's PKCE challenge and the scope asked for.
type code struct{ challenge, scope string }

// New starts a fake that serves mcp, the MCP server, to requests that
// carry a token it issued.
func New(mcp http.Handler) *Server {
	s := &Server{mcp: mcp, codes: map[string]code{}, tokens: map[string]bool{}, scopes: map[string]string{}, refresh: map[string]bool{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the base URL, the issuer.
func (s *Server) URL() string { return s.srv.URL }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Registrations is how many clients have registered so far.
func (s *Server) Registrations() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Register
}

// Revoke makes every access token invalid (refresh tokens stay valid).
func (s *Server) Revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens = map[string]bool{}
}

// RequireCallScope makes a tools/call need a token issued with scope
// among its scopes: another is refused 403 with a Bearer
// insufficient_scope challenge naming it (a step-up).
func (s *Server) RequireCallScope(scope string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.callScope = scope
}

// FailRevocation makes the revocation endpoint answer status (and
// revoke nothing); 0 makes it work again.
func (s *Server) FailRevocation(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revokeCode = status
}

// Revoked is how many tokens the revocation endpoint has revoked.
func (s *Server) Revoked() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.revoked
}

// Valid reports how many access tokens the server would accept now.
func (s *Server) Valid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tokens)
}

func random() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	base := s.srv.URL
	switch r.URL.Path {
	case "/mcp":
		s.serveMCP(w, r)
	case "/.well-known/oauth-protected-resource/mcp":
		writeJSON(w, 200, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
	case "/.well-known/oauth-authorization-server":
		writeJSON(w, 200, map[string]any{
			"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "revocation_endpoint": base + "/revoke",
			"response_types_supported":              []string{"code"},
			"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"},
		})
	case "/register":
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		s.mu.Lock()
		s.Register++
		s.mu.Unlock()
		req["client_id"] = "client-" + random()
		req["token_endpoint_auth_method"] = "none"
		writeJSON(w, http.StatusCreated, req)
	case "/authorize":
		s.authorize(w, r)
	case "/token":
		s.token(w, r)
	case "/revoke":
		s.revoke(w, r)
	default:
		http.NotFound(w, r)
	}
}

// serveMCP is the resource: the MCP server, for a token it issued.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.mu.Lock()
	ok := s.tokens[tok]
	if !ok {
		s.Refused++
	}
	need := s.callScope
	enough := need == "" || !bytes.Contains(body, []byte(`"tools/call"`)) || slices.Contains(strings.Fields(s.scopes[tok]), need)
	s.mu.Unlock()
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+s.srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if !enough {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+need+`"`)
		http.Error(w, "insufficient scope", http.StatusForbidden)
		return
	}
	s.mcp.ServeHTTP(w, r)
}

// revoke is the revocation endpoint (RFC 7009): the token posted, access
// or refresh, is no longer valid.
func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.revokeCode != 0 {
		writeJSON(w, s.revokeCode, map[string]string{"error": "temporarily_unavailable"})
		return
	}
	t := r.PostForm.Get("token")
	if s.tokens[t] || s.refresh[t] {
		s.revoked++
	}
	delete(s.tokens, t)
	delete(s.refresh, t)
	w.WriteHeader(http.StatusOK)
}

// authorize is the authorization endpoint, with no one to ask: it
// redirects with a code at once.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("code_challenge_method") != "S256" || q.Get("response_type") != "code" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	c := random()
	s.mu.Lock()
	s.codes[c] = code{challenge: q.Get("code_challenge"), scope: q.Get("scope")}
	s.mu.Unlock()
	rq := redirect.Query()
	rq.Set("code", c)
	rq.Set("state", q.Get("state"))
	redirect.RawQuery = rq.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// token is the token endpoint: a code with its PKCE verifier, or a
// refresh token it issued, buys a fresh pair.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	scope := ""
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		c, ok := s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		scope = c.scope
	case "refresh_token":
		if !s.refresh[r.PostForm.Get("refresh_token")] {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		scope = s.scopes[r.PostForm.Get("refresh_token")]
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	access, ref := "at-"+random(), "rt-"+random()
	s.tokens[access], s.refresh[ref] = true, true
	s.scopes[access], s.scopes[ref] = scope, scope
	s.Issued++
	resp := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": ref}
	if scope != "" {
		resp["scope"] = scope
	}
	writeJSON(w, 200, resp)
}

// Browser returns a user step's work as a test does it: it follows
// authURL and returns the URL the authorization server redirected to,
// without requesting it.
func Browser(authURL *url.URL) (*url.URL, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL.String())
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return resp.Location()
}
