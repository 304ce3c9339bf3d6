package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/secret"
)

// dpopFake is an MCP server at /mcp that takes DPoP-bound tokens only and
// its authorization server (client credentials or JWT bearer grant), on
// one origin. Both check every proof: signature, typ, htm, htu, iat, a
// fresh jti, ath and the key's binding at the server, and the nonce when
// they require one.
type dpopFake struct {
	srv        *httptest.Server
	dpop       bool   // advertise and require DPoP
	nonce      bool   // require nonces: "as-nonce" at the token endpoint, "rs-nonce" at the server
	tokenError string // answer every token request with this error
	bearerRS   bool   // advertise DPoP at the authorization server only; the server takes Bearer

	mu         sync.Mutex
	tokenReqs  int
	forms      []map[string][]string
	served     int
	bad        []string          // what was wrong with the proofs
	jtis       map[string]bool   // seen
	bound      map[string]string // token to its key's thumbprint
	keys       []string          // the thumbprint of each valid proof
	rsRefusals int               // use_dpop_nonce answers of the server
}

func newDPoPFake(t *testing.T, f *dpopFake) *dpopFake {
	f.jtis, f.bound = map[string]bool{}, map[string]string{}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *dpopFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	base := f.srv.URL
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		json.NewEncoder(w).Encode(map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
	case "/.well-known/oauth-authorization-server":
		m := map[string]any{
			"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
		}
		if f.dpop || f.bearerRS {
			m["dpop_signing_alg_values_supported"] = []string{"ES256"}
		}
		json.NewEncoder(w).Encode(m)
	case "/token":
		f.tokenReqs++
		r.ParseForm()
		f.forms = append(f.forms, r.PostForm)
		if f.tokenError != "" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":%q}`, f.tokenError)
			return
		}
		typ := "Bearer"
		tok := fmt.Sprintf("tok-%d", f.tokenReqs)
		if f.bearerRS && r.Header.Get("DPoP") != "" {
			f.bad = append(f.bad, "a DPoP proof to an authorization server whose resource server takes Bearer only")
		}
		if f.dpop {
			claims, jkt, err := f.check(r.Header.Get("DPoP"), base+"/token", "")
			if err != nil {
				f.bad = append(f.bad, "token endpoint: "+err.Error())
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":"invalid_dpop_proof"}`))
				return
			}
			if f.nonce && claims["nonce"] != "as-nonce" {
				w.Header().Set("DPoP-Nonce", "as-nonce")
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":"use_dpop_nonce"}`))
				return
			}
			typ = "DPoP"
			f.bound[tok] = jkt
		}
		json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": typ, "expires_in": 3600})
	case "/mcp":
		scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		jkt, known := f.bound[tok]
		if !known && !(scheme == "Bearer" && !f.dpop && strings.HasPrefix(tok, "tok-")) {
			ch := "DPoP"
			if f.bearerRS {
				ch = "Bearer"
			}
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`%s resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, ch, base))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if f.dpop {
			if scheme != "DPoP" {
				f.bad = append(f.bad, "server: scheme "+scheme)
			}
			claims, got, err := f.check(r.Header.Get("DPoP"), base+"/mcp", tok)
			if err == nil && got != jkt {
				err = errors.New("the proof's key is not the token's")
			}
			if err != nil {
				f.bad = append(f.bad, "server: "+err.Error())
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			if f.nonce && claims["nonce"] != "rs-nonce" {
				f.rsRefusals++
				w.Header().Set("DPoP-Nonce", "rs-nonce")
				w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
		}
		f.served++
		w.Write([]byte(`{"ok":true}`))
	default:
		http.NotFound(w, r)
	}
}

// check verifies a DPoP proof for a POST to htu, bound to token if set,
// and returns its claims and its key's RFC 7638 thumbprint.
func (f *dpopFake) check(proof, htu, token string) (map[string]any, string, error) {
	parts := strings.Split(proof, ".")
	if len(parts) != 3 {
		return nil, "", errors.New("no proof")
	}
	var header struct {
		Typ, Alg string
		JWK      struct{ Kty, Crv, X, Y, D string }
	}
	var claims map[string]any
	h, _ := base64.RawURLEncoding.DecodeString(parts[0])
	c, _ := base64.RawURLEncoding.DecodeString(parts[1])
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	if json.Unmarshal(h, &header) != nil || json.Unmarshal(c, &claims) != nil {
		return nil, "", errors.New("malformed proof")
	}
	if header.Typ != "dpop+jwt" || header.Alg != "ES256" || header.JWK.Kty != "EC" || header.JWK.Crv != "P-256" || header.JWK.D != "" {
		return nil, "", fmt.Errorf("bad header %s", h)
	}
	x, _ := base64.RawURLEncoding.DecodeString(header.JWK.X)
	y, _ := base64.RawURLEncoding.DecodeString(header.JWK.Y)
	pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return nil, "", errors.New("the signature does not verify")
	}
	if claims["htm"] != "POST" || claims["htu"] != htu {
		return nil, "", fmt.Errorf("htm %v, htu %v", claims["htm"], claims["htu"])
	}
	if iat, _ := claims["iat"].(float64); time.Since(time.Unix(int64(iat), 0)).Abs() > time.Minute {
		return nil, "", errors.New("iat is off")
	}
	jti, _ := claims["jti"].(string)
	if jti == "" || f.jtis[jti] {
		return nil, "", errors.New("jti missing or reused")
	}
	f.jtis[jti] = true
	ath, hasAth := claims["ath"]
	if token != "" {
		s := sha256.Sum256([]byte(token))
		if ath != base64.RawURLEncoding.EncodeToString(s[:]) {
			return nil, "", errors.New("ath does not match the token")
		}
	} else if hasAth {
		return nil, "", errors.New("ath at the token endpoint")
	}
	tp := sha256.Sum256([]byte(fmt.Sprintf(`{"crv":"P-256","kty":"EC","x":%q,"y":%q}`, header.JWK.X, header.JWK.Y)))
	jkt := base64.RawURLEncoding.EncodeToString(tp[:])
	f.keys = append(f.keys, jkt)
	return claims, jkt, nil
}

// post sends two requests, with a query the proofs must leave out.
func (f *dpopFake) post(t *testing.T, a *Authorizer) {
	t.Helper()
	c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)}
	for range 2 {
		resp, err := c.Post(f.srv.URL+"/mcp?session=1#frag", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d; proof problems: %q", resp.StatusCode, f.bad)
		}
	}
}

func TestDPoP(t *testing.T) {
	f := newDPoPFake(t, &dpopFake{dpop: true})
	a, err := New(Config{ServerURL: f.srv.URL + "/mcp", ClientID: "c1", ClientCredentials: true})
	if err != nil {
		t.Fatal(err)
	}
	f.post(t, a)
	if len(f.bad) > 0 || f.tokenReqs != 1 || f.served != 2 {
		t.Errorf("proof problems %q, %d token requests, %d served; want none, 1, 2", f.bad, f.tokenReqs, f.served)
	}
	for _, k := range f.keys {
		if k != f.keys[0] {
			t.Errorf("proofs signed with different keys")
		}
	}
}

func TestDPoPNonces(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	f := newDPoPFake(t, &dpopFake{dpop: true, nonce: true})
	a, err := New(Config{ServerURL: f.srv.URL + "/mcp", ClientID: "c1", ClientCredentials: true, DPoPKey: secret.New[crypto.Signer](key)})
	if err != nil {
		t.Fatal(err)
	}
	f.post(t, a)
	// One use_dpop_nonce at each; the second request already has the
	// server's nonce.
	if len(f.bad) > 0 || f.tokenReqs != 2 || f.rsRefusals != 1 || f.served != 2 {
		t.Errorf("proof problems %q, %d token requests, %d nonce refusals, %d served; want none, 2, 1, 2",
			f.bad, f.tokenReqs, f.rsRefusals, f.served)
	}
	jwk, _, _ := publicJWK(key.Public())
	tp := sha256.Sum256([]byte(fmt.Sprintf(`{"crv":"P-256","kty":"EC","x":%q,"y":%q}`, jwk["x"], jwk["y"])))
	if want := base64.RawURLEncoding.EncodeToString(tp[:]); len(f.keys) == 0 || f.keys[0] != want {
		t.Errorf("the proofs are not signed with Config.DPoPKey")
	}
}

func TestDPoPKeyMustBeP256(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if _, err := New(Config{ServerURL: "https://example.com/mcp", DPoPKey: secret.New[crypto.Signer](key)}); err == nil {
		t.Error("New took a P-384 DPoP key")
	}
}

func TestJWTBearerGrant(t *testing.T) {
	f := newDPoPFake(t, &dpopFake{})
	var issuer string
	a, err := New(Config{ServerURL: f.srv.URL + "/mcp", JWTBearerAssertion: func(_ context.Context, iss string) (secret.String, error) {
		issuer = iss
		return secret.New("workload.jwt.SECRET"), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	f.post(t, a)
	if issuer != f.srv.URL {
		t.Errorf("assertion asked for %q, want the issuer %q", issuer, f.srv.URL)
	}
	if len(f.forms) != 1 {
		t.Fatalf("%d token requests, want 1", len(f.forms))
	}
	form := f.forms[0]
	if form["grant_type"][0] != jwtBearerGrant || form["assertion"][0] != "workload.jwt.SECRET" || form["resource"][0] != f.srv.URL+"/mcp" {
		t.Errorf("token request %v", form)
	}
	if _, ok := form["client_id"]; ok {
		t.Errorf("token request names a client with none configured: %v", form)
	}
}

func TestJWTBearerRefusedIsNotRetried(t *testing.T) {
	f := newDPoPFake(t, &dpopFake{tokenError: "invalid_grant"})
	a, err := New(Config{ServerURL: f.srv.URL + "/mcp", ClientID: "w", UserStep: followOnce, RedirectURL: "http://127.0.0.1:9/cb",
		JWTBearerAssertion: func(context.Context, string) (secret.String, error) { return secret.New("workload.jwt.SECRET"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)}
	_, err = c.Post(f.srv.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	var te *TokenError
	if !errors.As(err, &te) || te.Code != "invalid_grant" {
		t.Fatalf("err = %v, want the token endpoint's invalid_grant", err)
	}
	if strings.Contains(err.Error(), "SECRET") {
		t.Errorf("the error quotes the assertion: %v", err)
	}
	if len(f.forms) != 1 || f.forms[0]["grant_type"][0] != jwtBearerGrant {
		t.Errorf("token requests %v, want one jwt-bearer request", f.forms)
	}
}
