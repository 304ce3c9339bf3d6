package oauth_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// The whole flow against an authorization server and an MCP server that
// live in the example (httptest, on loopback): the server answers 401,
// the Authorizer discovers the authorization server from the protected
// resource metadata, sends the user to authorize with PKCE, trades the
// code for a token and retries the request with it. The user step is
// what a browser does: it follows the authorization URL and hands back
// the redirect. A second request reuses the token.
func Example() {
	srv := newExampleServers()
	defer srv.Close()

	auth, err := oauth.New(oauth.Config{
		ServerURL:   srv.URL + "/mcp",
		RedirectURL: "http://127.0.0.1:8765/callback",
		ClientID:    "example-client", // else dynamic client registration
		UserStep: oauth.UserStepFunc(func(ctx context.Context, authURL *url.URL) (*url.URL, error) {
			fmt.Println("user step:", authURL.Path, "code_challenge_method="+authURL.Query().Get("code_challenge_method"))
			return browse(ctx, authURL)
		}),
	})
	if err != nil {
		log.Fatal(err)
	}
	client := &http.Client{Transport: auth.RoundTripper(http.DefaultTransport)}
	for range 2 {
		body := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		resp, err := client.Post(srv.URL+"/mcp", "application/json", body)
		if err != nil {
			log.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(answer))
	}
	fmt.Println("tokens issued:", srv.issued)
	// Output:
	// user step: /authorize code_challenge_method=S256
	// 200 {"jsonrpc":"2.0","id":1,"result":{}}
	// 200 {"jsonrpc":"2.0","id":1,"result":{}}
	// tokens issued: 1
}

// browse follows the authorization URL as a browser would, up to the
// redirect back to the client, which it returns without requesting it.
func browse(ctx context.Context, authURL *url.URL) (*url.URL, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL.String(), nil)
	if err != nil {
		return nil, err
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return resp.Location()
}

// exampleServers is the MCP server (/mcp, which wants a bearer token) and
// its authorization server, on one httptest server: the protected resource
// metadata, the authorization server metadata, /authorize (which consents
// at once) and /token (which checks the PKCE verifier).
type exampleServers struct {
	*httptest.Server
	mu     sync.Mutex
	codes  map[string]string // code → its PKCE challenge
	tokens map[string]bool
	issued int
}

func newExampleServers() *exampleServers {
	s := &exampleServers{codes: map[string]string{}, tokens: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", s.mcp)
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": s.URL + "/mcp", "authorization_servers": []string{s.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"issuer": s.URL, "authorization_endpoint": s.URL + "/authorize",
			"token_endpoint": s.URL + "/token", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}})
	})
	mux.HandleFunc("/authorize", s.authorize)
	mux.HandleFunc("/token", s.token)
	s.Server = httptest.NewServer(mux)
	return s
}

func (s *exampleServers) mcp(w http.ResponseWriter, r *http.Request) {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	ok := s.tokens[token]
	s.mu.Unlock()
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+s.URL+`/.well-known/oauth-protected-resource/mcp"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
}

func (s *exampleServers) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("code_challenge_method") != "S256" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	code := fmt.Sprintf("code-%d", len(s.codes)+1)
	s.codes[code] = q.Get("code_challenge")
	s.mu.Unlock()
	back := redirect.Query()
	back.Set("code", code)
	back.Set("state", q.Get("state"))
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (s *exampleServers) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	challenge, ok := s.codes[r.PostForm.Get("code")]
	delete(s.codes, r.PostForm.Get("code"))
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != challenge {
		w.WriteHeader(http.StatusBadRequest)
		writeJSON(w, map[string]string{"error": "invalid_grant"})
		return
	}
	s.issued++
	token := fmt.Sprintf("token-%d", s.issued)
	s.tokens[token] = true
	writeJSON(w, map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3600})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
