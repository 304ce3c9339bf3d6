package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/secret"
)

// fakeIdP is an enterprise IdP's token endpoint that answers a token
// exchange with an ID-JAG, or with the error or token type it is given.
type fakeIdP struct {
	srv       *httptest.Server
	issued    string // issued_token_type; "" means the ID-JAG type
	errorCode string

	mu    sync.Mutex
	forms []url.Values
	authz []string
}

func newFakeIdP(t *testing.T, p *fakeIdP) *fakeIdP {
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if r.Method != http.MethodPost || r.URL.Path != "/token" {
			http.NotFound(w, r)
			return
		}
		r.ParseForm()
		p.forms = append(p.forms, r.PostForm)
		p.authz = append(p.authz, r.Header.Get("Authorization"))
		if p.errorCode != "" {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]string{"error": p.errorCode})
			return
		}
		typ := p.issued
		if typ == "" {
			typ = idJAGTokenType
		}
		json.NewEncoder(w).Encode(map[string]string{"access_token": "id-jag.SECRET", "issued_token_type": typ, "token_type": "N_A"})
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func idToken(context.Context) (secret.String, error) { return secret.New("id-token.SECRET"), nil }

func TestIDJAGExchangeThenJWTBearer(t *testing.T) {
	f := standard()
	f.methods = []string{AuthBasic}
	newFake(t, f)
	idp := newFakeIdP(t, &fakeIdP{})
	x := &IDJAG{TokenEndpoint: idp.srv.URL + "/token", IDToken: idToken, ClientID: "idp-client"}
	a := f.authorizer(t, Config{ClientID: "as client", ClientSecret: secret.New("s:ecret"), JWTBearerAssertion: x.Assertion})
	if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("got %v %v, want 200", resp, err)
	}
	if len(idp.forms) != 1 {
		t.Fatalf("%d token exchanges, want 1", len(idp.forms))
	}
	wantExchange := url.Values{
		"grant_type":           {"urn:ietf:params:oauth:grant-type:token-exchange"},
		"requested_token_type": {"urn:ietf:params:oauth:token-type:id-jag"},
		"subject_token":        {"id-token.SECRET"},
		"subject_token_type":   {"urn:ietf:params:oauth:token-type:id_token"},
		"audience":             {f.issuer()},
		"resource":             {f.url()},
		"client_id":            {"idp-client"},
	}
	if diff := cmp.Diff(wantExchange, idp.forms[0]); diff != "" || idp.authz[0] != "" {
		t.Errorf("token exchange (-want +got):\n%s\nAuthorization %q", diff, idp.authz[0])
	}
	if len(f.tokenForms) != 1 {
		t.Fatalf("%d token requests at the authorization server, want 1", len(f.tokenForms))
	}
	wantGrant := url.Values{
		"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"},
		"assertion":  {"id-jag.SECRET"},
		"resource":   {f.url()},
	}
	if diff := cmp.Diff(wantGrant, f.tokenForms[0]); diff != "" {
		t.Errorf("jwt-bearer grant (-want +got):\n%s", diff)
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("as+client:s%3Aecret"))
	if f.tokenAuthz[0] != basic {
		t.Errorf("jwt-bearer grant Authorization %q, want %q", f.tokenAuthz[0], basic)
	}
}

func TestIDJAGClientAuthAndParameters(t *testing.T) {
	idp := newFakeIdP(t, &fakeIdP{})
	x := &IDJAG{TokenEndpoint: idp.srv.URL + "/token", IDToken: idToken, ClientID: "c", ClientSecret: secret.New("s"),
		Resource: "https://mcp.example/x", Scope: "files:read"}
	ctx := context.WithValue(context.Background(), assertionKey{}, assertionFor{resource: "https://other/", scope: "other"})
	jag, err := x.Assertion(ctx, "https://as.example")
	if err != nil || jag.Reveal() != "id-jag.SECRET" {
		t.Fatalf("Assertion = %q, %v", jag.Reveal(), err)
	}
	x.AuthMethod = AuthPost
	if _, err := x.Assertion(context.Background(), "https://as.example"); err != nil {
		t.Fatal(err)
	}
	form := idp.forms[0]
	if idp.authz[0] != "Basic "+base64.StdEncoding.EncodeToString([]byte("c:s")) || form.Has("client_id") || form.Has("client_secret") {
		t.Errorf("basic: Authorization %q, form %v", idp.authz[0], form)
	}
	if form.Get("resource") != "https://mcp.example/x" || form.Get("scope") != "files:read" || form.Get("audience") != "https://as.example" {
		t.Errorf("the configured resource and scope were not sent: %v", form)
	}
	form = idp.forms[1]
	if idp.authz[1] != "" || form.Get("client_id") != "c" || form.Get("client_secret") != "s" {
		t.Errorf("post: Authorization %q, form %v", idp.authz[1], form)
	}
}

func TestIDJAGRefusals(t *testing.T) {
	for name, p := range map[string]*fakeIdP{
		"error":      {errorCode: "invalid_grant"},
		"wrong type": {issued: "urn:ietf:params:oauth:token-type:access_token"},
	} {
		t.Run(name, func(t *testing.T) {
			f := standard()
			newFake(t, f)
			idp := newFakeIdP(t, p)
			x := &IDJAG{TokenEndpoint: idp.srv.URL + "/token", IDToken: idToken}
			a := f.authorizer(t, Config{JWTBearerAssertion: x.Assertion})
			_, err := f.call(a)
			if err == nil {
				t.Fatal("the call succeeded")
			}
			var te *TokenError
			if p.errorCode != "" && (!errors.As(err, &te) || te.Code != p.errorCode) {
				t.Errorf("err = %v, want the IdP's %s", err, p.errorCode)
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("the error quotes a token: %v", err)
			}
			if len(f.tokenForms) != 0 {
				t.Errorf("the authorization server got %d token requests, want none", len(f.tokenForms))
			}
		})
	}
}
