package oauth

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/redact"
	"github.com/plainmcp/plainmcp/secret"
)

// echoServer is an MCP server, its authorization server and an IdP on
// one origin whose token endpoints refuse every request with an
// error_description that repeats the whole request: its form and its
// Authorization and DPoP headers, as a careless or hostile one does.
type echoServer struct {
	srv *httptest.Server

	mu   sync.Mutex
	sent []string // every secret value a request carried
}

func newEchoServer(t *testing.T) *echoServer {
	e := &echoServer{}
	e.srv = httptest.NewServer(e)
	t.Cleanup(e.srv.Close)
	return e
}

func (e *echoServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := e.srv.URL
	switch r.URL.Path {
	case "/mcp":
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		w.WriteHeader(http.StatusUnauthorized)
	case "/.well-known/oauth-protected-resource/mcp":
		json.NewEncoder(w).Encode(map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
	case "/.well-known/oauth-authorization-server":
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{AuthPost},
		})
	case "/register":
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"client_id":"c1","client_secret":"registered-secret-PLANTED","token_endpoint_auth_method":"client_secret_post"}`))
	case "/token", "/idp/token":
		r.ParseForm()
		var echo strings.Builder
		echo.WriteString("you sent " + r.PostForm.Encode() + " and " + r.Form.Encode())
		e.mu.Lock()
		for k, vs := range r.PostForm {
			if !publicParams[k] {
				e.sent = append(e.sent, vs...)
			}
		}
		for _, h := range []string{"Authorization", "DPoP"} {
			if v := r.Header.Get(h); v != "" {
				e.sent = append(e.sent, v)
				echo.WriteString(" " + h + ": " + v)
			}
		}
		e.mu.Unlock()
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant " + r.PostForm.Get("code"), "error_description": echo.String()})
	default:
		http.NotFound(w, r)
	}
}

// check fails if text holds a planted secret or one a request carried.
func (e *echoServer) check(t *testing.T, what, text string) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.sent) == 0 {
		t.Fatal("no request reached a token endpoint")
	}
	if strings.Contains(text, "PLANTED") {
		t.Errorf("%s shows a planted secret: %s", what, text)
	}
	for _, s := range e.sent {
		if len(s) >= redact.MinLen && strings.Contains(text, s) {
			t.Errorf("%s shows %q, which the request carried: %s", what, s, text)
		}
	}
}

// redirectWithCode is a user step whose browser comes back with a code.
var redirectWithCode = UserStepFunc(func(_ context.Context, authURL *url.URL) (*url.URL, error) {
	q := authURL.Query()
	return url.Parse(q.Get("redirect_uri") + "?code=code-PLANTED-4711&state=" + url.QueryEscape(q.Get("state")))
})

func TestEchoedSecretsNeverQuoted(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	stored := &Token{AccessToken: secret.New("access-PLANTED-1"), RefreshToken: secret.New("refresh-PLANTED-1"),
		Expiry: time.Now().Add(-time.Minute), ClientID: "c1", ClientSecret: secret.New("stored-secret-PLANTED"), ClientAuth: AuthPost}
	for _, tc := range []struct {
		name string
		cfg  func(e *echoServer) Config
	}{
		{"authorization code, registered client", func(*echoServer) Config { return Config{UserStep: redirectWithCode} }},
		{"authorization code, pre-registered client", func(*echoServer) Config {
			return Config{UserStep: redirectWithCode, ClientID: "pre", ClientSecret: secret.New("client-secret-PLANTED")}
		}},
		{"refresh of a stored token", func(e *echoServer) Config {
			st := &MemoryStore{}
			t := *stored
			t.Issuer, t.TokenEndpoint = e.srv.URL, e.srv.URL+"/token"
			st.Save(context.Background(), e.srv.URL+"/mcp", &t)
			return Config{Store: st}
		}},
		{"private_key_jwt", func(*echoServer) Config {
			return Config{ClientCredentials: true, ClientID: "svc", SigningKey: secret.New[crypto.Signer](key)}
		}},
		{"client credentials with DPoP", func(*echoServer) Config {
			return Config{ClientCredentials: true, ClientID: "svc", ClientSecret: secret.New("client-secret-PLANTED"),
				TokenAuthMethod: AuthBasic, DPoPKey: secret.New[crypto.Signer](key)}
		}},
		{"JWT bearer", func(*echoServer) Config {
			return Config{JWTBearerAssertion: func(context.Context, string) (secret.String, error) {
				return secret.New("assertion-PLANTED-jwt"), nil
			}}
		}},
		{"ID-JAG at an echoing IdP", func(e *echoServer) Config {
			x := &IDJAG{TokenEndpoint: e.srv.URL + "/idp/token", ClientID: "idp-c", ClientSecret: secret.New("idp-secret-PLANTED"),
				IDToken: func(context.Context) (secret.String, error) { return secret.New("id-token-PLANTED"), nil }}
			return Config{JWTBearerAssertion: x.Assertion}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEchoServer(t)
			var logged bytes.Buffer
			cfg := tc.cfg(e)
			cfg.ServerURL, cfg.RedirectURL = e.srv.URL+"/mcp", "http://127.0.0.1:9/cb"
			cfg.Logger = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
			a, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)}
			resp, err := c.Post(cfg.ServerURL, "application/json", strings.NewReader(`{}`))
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusUnauthorized {
					t.Fatalf("no error, and status %d", resp.StatusCode)
				}
				// A failed refresh with no user step: logged, and the
				// server's 401 comes back as it came.
				e.check(t, "the log", logged.String())
				if !strings.Contains(logged.String(), "[redacted]") {
					t.Fatalf("the log %q quotes no redacted answer", logged.String())
				}
				return
			}
			e.check(t, "the error", err.Error())
			e.check(t, "the log", logged.String())
			var te *TokenError
			if !errors.As(err, &te) {
				// A failed refresh is logged; the flow then needs a user.
				if !strings.Contains(logged.String(), "[redacted]") {
					t.Fatalf("%v is not a *TokenError, and the log %q quotes none", err, logged.String())
				}
				return
			}
			e.check(t, "TokenError.Description", te.Description)
			if !strings.Contains(te.Description, "[redacted]") || len(te.Description) > maxErrorDescription+len("…") {
				t.Errorf("the description is not redacted and bounded: %q", te.Description)
			}
		})
	}
}
