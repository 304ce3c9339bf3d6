package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/secret"
)

// Revoke posts the refresh token, then the access token, each with its
// hint and the client's authentication (RFC 7009 section 2.1).
func TestRevoke(t *testing.T) {
	var mu sync.Mutex
	var forms []url.Values
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		mu.Lock()
		forms, auths = append(forms, r.PostForm), append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
	}))
	defer srv.Close()
	tok := &Token{AccessToken: secret.New("at-SECRET"), RefreshToken: secret.New("rt-SECRET"), RevocationEndpoint: srv.URL + "/revoke",
		ClientID: "c", ClientSecret: secret.New("s"), ClientAuth: AuthBasic}
	if err := Revoke(context.Background(), nil, tok); err != nil {
		t.Fatal(err)
	}
	if len(forms) != 2 || forms[0].Get("token") != "rt-SECRET" || forms[0].Get("token_type_hint") != "refresh_token" ||
		forms[1].Get("token") != "at-SECRET" || !strings.HasPrefix(auths[0], "Basic ") {
		t.Errorf("got %v %v, want the refresh token then the access token, client authenticated", forms, auths)
	}
	if err := Revoke(context.Background(), nil, &Token{AccessToken: secret.New("x")}); err != nil {
		t.Errorf("no revocation endpoint: %v, want nothing done", err)
	}
	bad := *tok
	bad.RevocationEndpoint = "javascript:alert(1)"
	if err := Revoke(context.Background(), nil, &bad); err == nil {
		t.Error("a javascript: revocation endpoint was used")
	}
}

// A refused revocation is a *TokenError quoting the endpoint, never the
// token.
func TestRevokeRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":"invalid_client"}`))
	}))
	defer srv.Close()
	err := Revoke(context.Background(), nil, &Token{AccessToken: secret.New("at-SECRET"), RevocationEndpoint: srv.URL})
	var te *TokenError
	if !errors.As(err, &te) || te.Code != "invalid_client" || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("got %v, want the endpoint's invalid_client and no token", err)
	}
}

// A denied login says so, with the provider's words, not a status 0.
func TestDeniedLoginSaysWhatTheProviderSaid(t *testing.T) {
	f := newFake(t, standard())
	step := UserStepFunc(func(ctx context.Context, u *url.URL) (*url.URL, error) {
		q := url.Values{"state": {u.Query().Get("state")}, "error": {"access_denied"}, "error_description": {"The user said no"}}
		return &url.URL{Scheme: "http", Host: "127.0.0.1:9", Path: "/callback", RawQuery: q.Encode()}, nil
	})
	_, err := f.call(f.authorizer(t, Config{UserStep: step}))
	var ae *AuthorizationError
	if !errors.As(err, &ae) || ae.Code != "access_denied" || !strings.Contains(err.Error(), "denied") ||
		!strings.Contains(err.Error(), "The user said no") || strings.Contains(err.Error(), " 0 ") {
		t.Errorf("got %v, want an AuthorizationError saying access was denied and why", err)
	}
}
