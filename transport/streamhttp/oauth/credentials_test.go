package oauth

import (
	"net/http"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/secret"
)

func TestClientCredentials(t *testing.T) {
	f := standard()
	f.methods = []string{AuthBasic}
	f.challengeScope = "mcp:read"
	newFake(t, f)
	a := f.authorizer(t, Config{ClientCredentials: true, ClientID: "svc", ClientSecret: secret.New("svc-SECRET")})
	resp, err := f.call(a)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("got %v %v, want 200", resp, err)
	}
	if f.authQuery != nil || f.registered != 0 {
		t.Errorf("an authorization request or a registration was made")
	}
	form := f.tokenForms[0]
	if form.Get("grant_type") != "client_credentials" || form.Get("scope") != "mcp:read" || form.Get("resource") != f.url() {
		t.Errorf("token request: got %v", form)
	}
	if !strings.HasPrefix(f.tokenAuthz[0], "Basic ") {
		t.Errorf("token request authorization: got %q, want Basic", f.tokenAuthz[0])
	}
}

func TestClientCredentialsNeedsAClientID(t *testing.T) {
	if _, err := New(Config{ServerURL: "https://x.example/mcp", ClientCredentials: true}); err == nil {
		t.Error("got no error for client credentials without a client ID")
	}
}
