package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/secret"
)

func TestRefreshBeforeExpiry(t *testing.T) {
	f := standard()
	f.refresh, f.expiresIn = true, 10 // inside the refresh margin
	newFake(t, f)
	a := f.authorizer(t, Config{})
	for i := range 2 {
		if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("call %d: %v %v", i, resp, err)
		}
	}
	if len(f.tokenForms) != 2 {
		t.Fatalf("got %d token requests, want 2", len(f.tokenForms))
	}
	form := f.tokenForms[1]
	if form.Get("grant_type") != "refresh_token" || form.Get("refresh_token") != "refresh-1" || form.Get("resource") != f.url() {
		t.Errorf("second token request: got %v, want a refresh of refresh-1 for %s", form, f.url())
	}
	if f.authQuery == nil || f.registered != 1 {
		t.Errorf("want one authorization and one registration, got %d registrations", f.registered)
	}
}

func TestRefreshOn401(t *testing.T) {
	f := standard()
	f.refresh = true
	newFake(t, f)
	a := f.authorizer(t, Config{})
	if _, err := f.call(a); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.valid = map[string]bool{} // the server forgets tok-1
	f.authQuery = nil
	f.mu.Unlock()
	resp, err := f.call(a)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("after revocation: %v %v", resp, err)
	}
	if f.authQuery != nil {
		t.Error("a new authorization was made; want a refresh")
	}
	if got := f.tokenForms[len(f.tokenForms)-1].Get("grant_type"); got != "refresh_token" {
		t.Errorf("last grant: got %q, want refresh_token", got)
	}
}

func TestSecretsStayOutOfErrors(t *testing.T) {
	f := standard()
	f.methods = []string{AuthPost}
	newFake(t, f)
	// The fake rejects the code: the verifier does not match.
	step := UserStepFunc(func(ctx context.Context, u *url.URL) (*url.URL, error) {
		q := u.Query()
		q.Set("code_challenge", "not-the-challenge")
		u.RawQuery = q.Encode()
		return followOnce(ctx, u)
	})
	_, err := f.call(f.authorizer(t, Config{UserStep: step}))
	if err == nil {
		t.Fatal("got no error, want the token endpoint's refusal")
	}
	var te *TokenError
	if !errors.As(err, &te) || te.Code != "invalid_grant" {
		t.Errorf("got %v, want a TokenError invalid_grant", err)
	}
	for _, secret := range []string{"code-SECRET", "secret-SECRET", f.tokenForms[0].Get("code_verifier")} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q quotes a secret", err)
		}
	}
	if s := fmt.Sprint(&Token{AccessToken: secret.New("tok-SECRET"), RefreshToken: secret.New("r-SECRET")}); strings.Contains(s, "SECRET") {
		t.Errorf("a Token prints %q, a secret", s)
	}
}

func TestNoTokenToAnotherOrigin(t *testing.T) {
	f := newFake(t, standard())
	a := f.authorizer(t, Config{})
	if _, err := f.call(a); err != nil {
		t.Fatal(err)
	}
	var got []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer other.Close()
	c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)}
	resp, err := c.Get(other.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(got) != 1 || got[0] != "" || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("another origin saw Authorization %q (status %d); want one request without it", got, resp.StatusCode)
	}
}

func TestMigrationRegistersAtTheNewServer(t *testing.T) {
	f := standard()
	f.issuerPath, f.metaPath = "/as1", "/.well-known/oauth-authorization-server/as1"
	newFake(t, f)
	a := f.authorizer(t, Config{})
	if _, err := f.call(a); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.issuerPath, f.metaPath = "/as2", "/.well-known/oauth-authorization-server/as2"
	f.valid = map[string]bool{}
	f.mu.Unlock()
	if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("after the move: %v %v", resp, err)
	}
	if f.registered != 2 {
		t.Errorf("got %d registrations, want one at each server", f.registered)
	}
}

// A token stored by one run is refreshed by the next: the store keeps
// where it came from (issuer, token endpoint, resource, client), so a new
// Authorizer needs no new authorization when the access token is refused.
func TestStoredTokenRefreshesInALaterRun(t *testing.T) {
	f := standard()
	f.refresh = true
	newFake(t, f)
	store := &FileStore{Path: t.TempDir() + "/tokens.json"}
	first := f.authorizer(t, Config{Store: store})
	if _, err := f.call(first); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.valid = map[string]bool{} // the server forgets the access token
	f.authQuery = nil
	f.mu.Unlock()
	later := f.authorizer(t, Config{Store: store, UserStep: UserStepFunc(func(context.Context, *url.URL) (*url.URL, error) {
		t.Error("a later run asked the user again")
		return nil, errors.New("no user here")
	})})
	resp, err := f.call(later)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the later run: %v %v", resp, err)
	}
	if got := f.tokenForms[len(f.tokenForms)-1].Get("grant_type"); got != "refresh_token" {
		t.Errorf("last grant: got %q, want refresh_token", got)
	}
	if f.registered != 1 {
		t.Errorf("%d client registrations, want 1 (the later run reuses the stored client)", f.registered)
	}
}

// An expires_in too large for a time.Duration is a token that lasts, not
// one already expired: none of these is refreshed before every request.
func TestHugeExpiresInIsNoExpiry(t *testing.T) {
	for _, expiresIn := range []int{9223372037, 1 << 40, 1<<63 - 1} {
		f := standard()
		f.refresh, f.expiresIn = true, expiresIn
		newFake(t, f)
		a := f.authorizer(t, Config{})
		for i := range 3 {
			if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("expires_in %d, call %d: %v %v", expiresIn, i, resp, err)
			}
		}
		if n := f.grants("refresh_token"); n != 0 {
			t.Errorf("expires_in %d: %d refreshes in 3 calls, want none", expiresIn, n)
		}
	}
}
