package oauth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/secret"
)

// thief is a server on another origin that records what reaches it.
type thief struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []string
	auth []string
}

func newThief(t *testing.T) *thief {
	th := &thief{}
	th.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		th.mu.Lock()
		th.got = append(th.got, r.Method+" "+string(body))
		th.auth = append(th.auth, r.Header.Get("Authorization"))
		th.mu.Unlock()
		w.Write([]byte(`{"access_token":"stolen","token_type":"Bearer"}`))
	}))
	t.Cleanup(th.srv.Close)
	return th
}

// A token endpoint that redirects its request elsewhere never gets the
// request's secrets (the code, the PKCE verifier, the refresh token, the
// client's secret) sent there: net/http's client sends a 307's or 308's
// body again, and keeps the Authorization header on a redirect to another
// port of the same host.
func TestTokenRequestNotRedirectedToAnotherOrigin(t *testing.T) {
	for _, tc := range []struct {
		name   string
		code   int
		grant  string
		method string
	}{
		{"code, 307, secret in the form", http.StatusTemporaryRedirect, "authorization_code", AuthPost},
		{"code, 308, basic", http.StatusPermanentRedirect, "authorization_code", AuthBasic},
		{"code, 302, basic", http.StatusFound, "authorization_code", AuthBasic},
		{"refresh, 307", http.StatusTemporaryRedirect, "refresh_token", AuthPost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			th := newThief(t)
			f := standard()
			f.refresh, f.expiresIn = true, 10 // refreshed on the next call
			f.tokenRedirect, f.redirectGrant, f.redirectCode = th.srv.URL+"/token", tc.grant, tc.code
			newFake(t, f)
			a := f.authorizer(t, Config{ClientID: "pre", ClientSecret: secret.New("client-secret-PLANTED"), TokenAuthMethod: tc.method})
			resp, err := f.call(a)
			if tc.grant == "refresh_token" {
				if err != nil || resp.StatusCode != http.StatusOK {
					t.Fatalf("first call: %v %v", resp, err)
				}
				_, err = f.call(a)
			}
			th.mu.Lock()
			defer th.mu.Unlock()
			if len(th.got) > 0 {
				t.Errorf("the other origin got %q with Authorization %q", th.got, th.auth)
			}
			if tc.grant == "authorization_code" && (err == nil || !errors.Is(err, ErrRedirected)) {
				t.Errorf("got %v, want an error wrapping ErrRedirected", err)
			}
			if err != nil && strings.Contains(err.Error(), "PLANTED") {
				t.Errorf("the error %q quotes the secret", err)
			}
		})
	}
}

// hostRecorder is a transport that answers only loopback hosts, through
// the default transport, and records every other it is asked for.
type hostRecorder struct {
	mu     sync.Mutex
	others []string
}

func (h *hostRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Hostname() != "127.0.0.1" {
		h.mu.Lock()
		h.others = append(h.others, r.URL.Scheme+"://"+r.URL.Host)
		h.mu.Unlock()
		return nil, errors.New("no network in tests")
	}
	return http.DefaultTransport.RoundTrip(r)
}

// A metadata document or a token endpoint that redirects to plain http on
// a host that is not loopback is not followed: the document could be
// replaced on the way, and the secrets read.
func TestNoRedirectToPlainHTTP(t *testing.T) {
	const evil = "http://as.evil.example/x"
	t.Run("token request", func(t *testing.T) {
		rec := &hostRecorder{}
		f := standard()
		f.tokenRedirect, f.redirectGrant, f.redirectCode = evil, "authorization_code", http.StatusTemporaryRedirect
		newFake(t, f)
		_, err := f.call(f.authorizer(t, Config{HTTPClient: &http.Client{Transport: rec}}))
		rec.check(t, err)
	})
	t.Run("metadata", func(t *testing.T) {
		rec := &hostRecorder{}
		redirector := httptest.NewServer(http.RedirectHandler(evil, http.StatusFound))
		t.Cleanup(redirector.Close)
		h := newHostile(t)
		h.challenge = redirector.URL + "/.well-known/oauth-protected-resource"
		err, stepped := h.run(t, Config{HTTPClient: &http.Client{Transport: rec}})
		if stepped {
			t.Error("the user step ran")
		}
		rec.check(t, err)
	})
}

// check: err wraps ErrUnsafeURL, and no request left loopback.
func (h *hostRecorder) check(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrUnsafeURL) {
		t.Errorf("got %v, want ErrUnsafeURL", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.others) > 0 {
		t.Errorf("requests went to %q", h.others)
	}
}

// Revocation and the IdP's token exchange carry secrets too: a redirect
// of either to another origin is refused, whatever client the caller gave.
func TestRevokeAndExchangeNotRedirected(t *testing.T) {
	th := newThief(t)
	redirector := httptest.NewServer(http.RedirectHandler(th.srv.URL+"/x", http.StatusTemporaryRedirect))
	t.Cleanup(redirector.Close)
	tok := &Token{AccessToken: secret.New("at-PLANTED"), RefreshToken: secret.New("rt-PLANTED"), RevocationEndpoint: redirector.URL + "/revoke",
		ClientID: "c", ClientSecret: secret.New("s-PLANTED"), ClientAuth: AuthPost}
	for _, client := range []*http.Client{nil, {}} {
		if err := Revoke(context.Background(), client, tok); !errors.Is(err, ErrRedirected) {
			t.Errorf("Revoke with client %v: got %v, want ErrRedirected", client, err)
		}
	}
	x := &IDJAG{TokenEndpoint: redirector.URL + "/token", ClientID: "c", ClientSecret: secret.New("s-PLANTED"),
		IDToken: func(context.Context) (secret.String, error) { return secret.New("id-PLANTED"), nil }}
	if _, err := x.Assertion(context.Background(), "https://as.example"); !errors.Is(err, ErrRedirected) {
		t.Errorf("IDJAG.Assertion: got %v, want ErrRedirected", err)
	}
	th.mu.Lock()
	defer th.mu.Unlock()
	if len(th.got) > 0 {
		t.Errorf("the other origin got %q", th.got)
	}
}
