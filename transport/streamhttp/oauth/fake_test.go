package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fake is an MCP server at /mcp and its authorization server on one
// origin, each feature a field.
type fake struct {
	srv *httptest.Server

	// The resource server.
	prmPath         string // where the PRM is served; "" for none
	prmInHeader     bool   // name it in WWW-Authenticate
	prmResource     string // "" means the server URL
	scopesSupported []string
	challengeScope  string
	requireScope    string // a valid token without it gets 403 insufficient_scope
	grantNoScope    bool   // issue tokens with no scope, whatever was asked

	// The authorization server.
	issuerPath     string // the issuer is the origin plus this
	metaPath       string // where its metadata is served; "" for none
	issuerOverride string // the issuer the metadata claims, if set
	asScopes       []string
	methods        []string // token_endpoint_auth_methods_supported
	noS256         bool
	issSupported   bool
	iss            func(issuer string) (string, bool) // the iss to redirect with
	noRegistration bool
	expiresIn      int
	refresh        bool   // issue refresh tokens
	refuseRefresh  bool   // answer refresh requests invalid_grant
	rotate         bool   // a refresh token works once; reusing one is counted and refused
	laterExpiresIn int    // expires_in of refreshed tokens, if set
	cimd           bool   // accept client ID metadata documents
	tokenRedirect  string // answer token requests of redirectGrant with a redirect there, if set
	redirectGrant  string // the grant_type redirected
	redirectCode   int    // the status of that redirect
	tokenType      string // the token_type of tokens issued; "" means "bearer"

	mu         sync.Mutex
	gets       []string
	authQuery  url.Values
	challenge  string
	tokenForms []url.Values
	tokenAuthz []string
	registered int
	valid      map[string]bool
	scopes     map[string]string // the scope each token was issued for
	forbidden  int               // 403s sent
	issued     int
	rts        map[string]bool // refresh tokens not yet used
	reused     int             // rotated refresh tokens presented again
}

func newFake(t *testing.T, f *fake) *fake {
	f.valid, f.scopes, f.rts = map[string]bool{}, map[string]string{}, map[string]bool{}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) url() string    { return f.srv.URL + "/mcp" }
func (f *fake) issuer() string { return f.srv.URL + f.issuerPath }

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/mcp":
		auth := r.Header.Get("Authorization")
		if tok := strings.TrimPrefix(auth, "Bearer "); f.valid[tok] {
			if f.requireScope != "" && !slices.Contains(strings.Fields(f.scopes[tok]), f.requireScope) {
				f.forbidden++
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s"`, f.requireScope))
				w.WriteHeader(http.StatusForbidden)
				return
			}
			w.Write([]byte(`{"ok":true}`))
			return
		}
		ch := `Bearer error="invalid_token"`
		if f.prmInHeader {
			ch += fmt.Sprintf(`, resource_metadata="%s%s"`, f.srv.URL, f.prmPath)
		}
		if f.challengeScope != "" {
			ch += fmt.Sprintf(`, scope="%s"`, f.challengeScope)
		}
		w.Header().Set("WWW-Authenticate", ch)
		w.WriteHeader(http.StatusUnauthorized)
	case r.Method == http.MethodGet && r.URL.Path == f.issuerPath+"/authorize":
		q := r.URL.Query()
		f.authQuery, f.challenge = q, q.Get("code_challenge")
		red, _ := url.Parse(q.Get("redirect_uri"))
		rq := red.Query()
		rq.Set("code", "code-SECRET")
		rq.Set("state", q.Get("state"))
		if f.iss != nil {
			if iss, ok := f.iss(f.issuer()); ok {
				rq.Set("iss", iss)
			}
		}
		red.RawQuery = rq.Encode()
		http.Redirect(w, r, red.String(), http.StatusFound)
	case r.Method == http.MethodPost && r.URL.Path == f.issuerPath+"/token":
		if f.tokenRedirect != "" && r.FormValue("grant_type") == f.redirectGrant {
			http.Redirect(w, r, f.tokenRedirect, f.redirectCode)
			return
		}
		r.ParseForm()
		f.tokenForms = append(f.tokenForms, r.PostForm)
		f.tokenAuthz = append(f.tokenAuthz, r.Header.Get("Authorization"))
		if r.PostForm.Get("grant_type") == "refresh_token" && f.refuseRefresh {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant","error_description":"refresh token revoked"}`))
			return
		}
		expiresIn := f.expiresIn
		if r.PostForm.Get("grant_type") == "refresh_token" && f.rotate {
			rt := r.PostForm.Get("refresh_token")
			if !f.rts[rt] {
				f.reused++
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":"invalid_grant","error_description":"refresh token reused"}`))
				return
			}
			delete(f.rts, rt)
		}
		if r.PostForm.Get("grant_type") == "refresh_token" && f.laterExpiresIn > 0 {
			expiresIn = f.laterExpiresIn
		}
		if r.PostForm.Get("grant_type") == "authorization_code" {
			sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
			if base64.RawURLEncoding.EncodeToString(sum[:]) != f.challenge || r.PostForm.Get("code") != "code-SECRET" {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":"invalid_grant","error_description":"verifier mismatch"}`))
				return
			}
		}
		f.issued++
		tok := fmt.Sprintf("tok-%d", f.issued)
		f.valid[tok] = true
		if !f.grantNoScope {
			f.scopes[tok] = f.authQuery.Get("scope")
		}
		typ := "bearer"
		if f.tokenType != "" {
			typ = f.tokenType
		}
		resp := map[string]any{"access_token": tok, "token_type": typ}
		if expiresIn > 0 {
			resp["expires_in"] = expiresIn
		}
		if f.refresh {
			resp["refresh_token"] = fmt.Sprintf("refresh-%d", f.issued)
			f.rts[fmt.Sprintf("refresh-%d", f.issued)] = true
		}
		json.NewEncoder(w).Encode(resp)
	case r.Method == http.MethodPost && r.URL.Path == f.issuerPath+"/register" && !f.noRegistration:
		var req struct {
			Method string `json:"token_endpoint_auth_method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		f.registered++
		resp := map[string]any{"client_id": "client-1", "token_endpoint_auth_method": req.Method}
		if req.Method != AuthNone {
			resp["client_secret"] = "secret-SECRET"
		}
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(resp)
	case r.Method == http.MethodGet && f.prmPath != "" && r.URL.Path == f.prmPath:
		f.gets = append(f.gets, r.URL.Path)
		res := f.prmResource
		if res == "" {
			res = f.url()
		}
		json.NewEncoder(w).Encode(map[string]any{
			"resource": res, "authorization_servers": []string{f.issuer()}, "scopes_supported": f.scopesSupported,
		})
	case r.Method == http.MethodGet && f.metaPath != "" && r.URL.Path == f.metaPath:
		f.gets = append(f.gets, r.URL.Path)
		iss := f.issuer()
		if f.issuerOverride != "" {
			iss = f.issuerOverride
		}
		m := map[string]any{
			"issuer":                           iss,
			"authorization_endpoint":           f.issuer() + "/authorize",
			"token_endpoint":                   f.issuer() + "/token",
			"code_challenge_methods_supported": []string{"S256"},
			"authorization_response_iss_parameter_supported": f.issSupported,
		}
		if !f.noRegistration {
			m["registration_endpoint"] = f.issuer() + "/register"
		}
		if f.noS256 {
			m["code_challenge_methods_supported"] = []string{"plain"}
		}
		if f.methods != nil {
			m["token_endpoint_auth_methods_supported"] = f.methods
		}
		if f.cimd {
			m["client_id_metadata_document_supported"] = true
		}
		if f.asScopes != nil {
			m["scopes_supported"] = f.asScopes
		}
		json.NewEncoder(w).Encode(m)
	default:
		if r.Method == http.MethodGet {
			f.gets = append(f.gets, r.URL.Path)
		}
		http.NotFound(w, r)
	}
}

// followOnce is the user step a test uses: it fetches the authorization
// URL and returns where the server redirects, without following.
var followOnce = UserStepFunc(func(ctx context.Context, authURL *url.URL) (*url.URL, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, authURL.String(), nil)
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return resp.Location()
})

// authorizer is an Authorizer for f's server with cfg's other fields.
func (f *fake) authorizer(t *testing.T, cfg Config) *Authorizer {
	t.Helper()
	cfg.ServerURL = f.url()
	if cfg.RedirectURL == "" {
		cfg.RedirectURL = "http://127.0.0.1:9/callback"
	}
	if cfg.UserStep == nil {
		cfg.UserStep = followOnce
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// call POSTs a body to f's MCP endpoint through a's round-tripper.
func (f *fake) call(a *Authorizer) (*http.Response, error) {
	c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)}
	resp, err := c.Post(f.url(), "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err == nil {
		resp.Body.Close()
	}
	return resp, err
}

// grants counts the token requests of grant type gt.
func (f *fake) grants(gt string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, form := range f.tokenForms {
		if form.Get("grant_type") == gt {
			n++
		}
	}
	return n
}

// countingStep wraps followOnce, counting its calls.
type countingStep struct {
	mu    sync.Mutex
	calls int
}

func (c *countingStep) Authorize(ctx context.Context, u *url.URL) (*url.URL, error) {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	return followOnce(ctx, u)
}

func (c *countingStep) n() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}
