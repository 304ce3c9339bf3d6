package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/secret"
)

// standard is the usual layout: PRM at the path-inserted well-known URL,
// named in the challenge; RFC 8414 metadata at the root.
func standard() *fake {
	return &fake{
		prmPath:     "/.well-known/oauth-protected-resource/mcp",
		prmInHeader: true,
		metaPath:    "/.well-known/oauth-authorization-server",
	}
}

// A Store set from a nil *FileStore or *MemoryStore (an interface that
// holds a nil pointer, not a nil interface) means the default store, as
// nil does, rather than a panic at the first request.
func TestNilStorePointerMeansMemory(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store TokenStore
	}{
		{"nil *FileStore", (*FileStore)(nil)},
		{"nil *MemoryStore", (*MemoryStore)(nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, standard())
			resp, err := f.call(f.authorizer(t, Config{Store: tc.store}))
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Errorf("got status %d, want 200", resp.StatusCode)
			}
		})
	}
}

func TestFlowAuthorizesAndRetries(t *testing.T) {
	f := newFake(t, standard())
	a := f.authorizer(t, Config{})
	for i := range 2 {
		resp, err := f.call(a)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("call %d: got status %d, want 200", i, resp.StatusCode)
		}
	}
	if f.issued != 1 || f.registered != 1 {
		t.Errorf("got %d tokens and %d registrations, want 1 each", f.issued, f.registered)
	}
	q := f.authQuery
	for name, want := range map[string]string{
		"response_type": "code", "client_id": "client-1", "code_challenge_method": "S256",
		"resource": f.url(), "redirect_uri": "http://127.0.0.1:9/callback",
	} {
		if got := q.Get(name); got != want {
			t.Errorf("authorization request %s: got %q, want %q", name, got, want)
		}
	}
	if q.Get("state") == "" || q.Has("scope") {
		t.Errorf("authorization request: state %q, scope present %v; want a state and no scope", q.Get("state"), q.Has("scope"))
	}
	if got := f.tokenForms[0].Get("resource"); got != f.url() {
		t.Errorf("token request resource: got %q, want %q", got, f.url())
	}
	tok, _ := a.store.Load(context.Background(), f.url())
	if tok == nil || tok.AccessToken.Reveal() != "tok-1" {
		t.Errorf("stored token: got %v, want tok-1", tok)
	}
}

func TestDiscoveryOrder(t *testing.T) {
	const prmPath = "/.well-known/oauth-protected-resource/mcp"
	const prmRoot = "/.well-known/oauth-protected-resource"
	for _, tc := range []struct {
		name string
		f    *fake
		want []string // the GETs, in order
	}{
		{"prm from the challenge", &fake{prmPath: "/custom/prm.json", prmInHeader: true, metaPath: "/.well-known/oauth-authorization-server"},
			[]string{"/custom/prm.json", "/.well-known/oauth-authorization-server"}},
		{"path-inserted prm probed", &fake{prmPath: prmPath, metaPath: "/.well-known/oauth-authorization-server"},
			[]string{prmPath, "/.well-known/oauth-authorization-server"}},
		{"root prm after the path", &fake{prmPath: prmRoot, metaPath: "/.well-known/oauth-authorization-server"},
			[]string{prmPath, prmRoot, "/.well-known/oauth-authorization-server"}},
		{"openid at the root", &fake{prmPath: prmPath, metaPath: "/.well-known/openid-configuration"},
			[]string{prmPath, "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
		{"rfc 8414 path insertion", &fake{prmPath: prmPath, issuerPath: "/tenant1", metaPath: "/.well-known/oauth-authorization-server/tenant1"},
			[]string{prmPath, "/.well-known/oauth-authorization-server/tenant1"}},
		{"openid path insertion", &fake{prmPath: prmPath, issuerPath: "/tenant1", metaPath: "/.well-known/openid-configuration/tenant1"},
			[]string{prmPath, "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1"}},
		{"openid path appended", &fake{prmPath: prmPath, issuerPath: "/tenant1", metaPath: "/tenant1/.well-known/openid-configuration"},
			[]string{prmPath, "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"}},
		{"2025-03-26: metadata at the origin", &fake{metaPath: "/.well-known/oauth-authorization-server"},
			[]string{prmPath, prmRoot, "/.well-known/oauth-authorization-server"}},
		{"2025-03-26: default endpoints", &fake{},
			[]string{prmPath, prmRoot, "/.well-known/oauth-authorization-server"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.f)
			resp, err := f.call(f.authorizer(t, Config{}))
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Errorf("got status %d, want 200", resp.StatusCode)
			}
			if d := cmp.Diff(tc.want, f.gets); d != "" {
				t.Errorf("metadata requests (-want +got):\n%s", d)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	wrongIss := func(string) (string, bool) { return "https://attacker.example.com", true }
	for _, tc := range []struct {
		name      string
		change    func(f *fake)
		step      UserStep
		want      error
		authorize bool // whether the authorization request is made
	}{
		{"resource mismatch", func(f *fake) { f.prmResource = "https://evil.example.com/mcp" }, nil, ErrResourceMismatch, false},
		{"resource on another path", func(f *fake) { f.prmResource = f.srv.URL + "/other" }, nil, ErrResourceMismatch, false},
		{"issuer mismatch", func(f *fake) { f.issuerOverride = "https://attacker.example.com" }, nil, ErrIssuerMismatch, false},
		{"no S256", func(f *fake) { f.noS256 = true }, nil, ErrNoPKCE, false},
		{"wrong iss", func(f *fake) { f.iss = wrongIss }, nil, ErrIssuerMismatch, true},
		{"iss with a slash added", func(f *fake) {
			f.issSupported = true
			f.iss = func(is string) (string, bool) { return is + "/", true }
		}, nil, ErrIssuerMismatch, true},
		{"advertised iss missing", func(f *fake) { f.issSupported = true }, nil, ErrIssuerMismatch, true},
		{"state mismatch", func(f *fake) {}, UserStepFunc(func(ctx context.Context, u *url.URL) (*url.URL, error) {
			red, err := followOnce(ctx, u)
			if err == nil {
				q := red.Query()
				q.Set("state", "forged")
				red.RawQuery = q.Encode()
			}
			return red, err
		}), ErrState, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, standard())
			tc.change(f)
			_, err := f.call(f.authorizer(t, Config{UserStep: tc.step}))
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if len(f.tokenForms) != 0 {
				t.Errorf("the token endpoint was called %d times, want none", len(f.tokenForms))
			}
			if got := f.authQuery != nil; got != tc.authorize {
				t.Errorf("authorization request made: %v, want %v", got, tc.authorize)
			}
		})
	}
}

func TestScopes(t *testing.T) {
	for _, tc := range []struct {
		name                string
		challenge           string
		prmScopes, asScopes []string
		want                string
		wantPresent         bool
	}{
		{"from the challenge", "mcp:read", []string{"mcp:read", "mcp:write"}, nil, "mcp:read", true},
		{"from scopes_supported", "", []string{"mcp:read", "mcp:write"}, nil, "mcp:read mcp:write", true},
		{"omitted", "", nil, nil, "", false},
		{"offline_access when offered", "mcp:read", nil, []string{"mcp:read", "offline_access"}, "mcp:read offline_access", true},
		{"no offline_access when not offered", "mcp:read", nil, []string{"mcp:read"}, "mcp:read", true},
		{"the host's when the challenge names none", "", []string{"mcp:read", "mcp:write"}, nil, "mcp:admin", true},
		{"the challenge's over the host's", "mcp:read", nil, nil, "mcp:read", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := standard()
			f.challengeScope, f.scopesSupported, f.asScopes = tc.challenge, tc.prmScopes, tc.asScopes
			newFake(t, f)
			var cfg Config
			if strings.HasPrefix(tc.name, "the host's") || strings.HasPrefix(tc.name, "the challenge's over") {
				cfg.Scopes = []string{"mcp:admin"}
			}
			if _, err := f.call(f.authorizer(t, cfg)); err != nil {
				t.Fatal(err)
			}
			if got := f.authQuery.Get("scope"); got != tc.want || f.authQuery.Has("scope") != tc.wantPresent {
				t.Errorf("scope: got %q (present %v), want %q (present %v)", got, f.authQuery.Has("scope"), tc.want, tc.wantPresent)
			}
		})
	}
}

func TestTokenEndpointAuth(t *testing.T) {
	for _, tc := range []struct {
		name          string
		methods       []string
		cfg           Config
		wantBasic     bool
		wantSecret    string // client_secret in the body
		wantClientID  string // client_id in the body
		wantRegisters int
	}{
		{"basic", []string{AuthBasic}, Config{}, true, "", "", 1},
		{"post", []string{AuthPost}, Config{}, false, "secret-SECRET", "client-1", 1},
		{"none", []string{AuthNone}, Config{}, false, "", "client-1", 1},
		{"pre-registered basic", []string{AuthBasic}, Config{ClientID: "pre", ClientSecret: secret.New("pre-SECRET")}, true, "", "", 0},
		{"pre-registered post", []string{AuthPost, AuthNone}, Config{ClientID: "pre", ClientSecret: secret.New("pre-SECRET")}, false, "pre-SECRET", "pre", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := standard()
			f.methods = tc.methods
			newFake(t, f)
			if _, err := f.call(f.authorizer(t, tc.cfg)); err != nil {
				t.Fatal(err)
			}
			if got := strings.HasPrefix(f.tokenAuthz[0], "Basic "); got != tc.wantBasic {
				t.Errorf("Basic authorization: got %v, want %v", got, tc.wantBasic)
			}
			form := f.tokenForms[0]
			if form.Get("client_secret") != tc.wantSecret || form.Get("client_id") != tc.wantClientID {
				t.Errorf("body client_id %q client_secret %q, want %q %q", form.Get("client_id"), form.Get("client_secret"), tc.wantClientID, tc.wantSecret)
			}
			if f.registered != tc.wantRegisters {
				t.Errorf("registrations: got %d, want %d", f.registered, tc.wantRegisters)
			}
		})
	}
}

func TestBasicCredentialsAreFormEncoded(t *testing.T) {
	f := standard()
	f.methods = []string{AuthBasic}
	newFake(t, f)
	if _, err := f.call(f.authorizer(t, Config{ClientID: "a:b", ClientSecret: secret.New("s p")})); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "/", nil)
	req.Header.Set("Authorization", f.tokenAuthz[0])
	id, secret, ok := req.BasicAuth()
	if !ok || id != "a%3Ab" || secret != "s+p" {
		t.Errorf("basic credentials: got %q %q, want the form-encoded a%%3Ab s+p", id, secret)
	}
}

func TestClientMetadataDocumentWhenSupported(t *testing.T) {
	for _, supported := range []bool{true, false} {
		f := standard()
		f.cimd = supported
		newFake(t, f)
		if _, err := f.call(f.authorizer(t, Config{ClientMetadataURL: "https://client.example/meta.json"})); err != nil {
			t.Fatal(err)
		}
		want, wantReg := "client-1", 1
		if supported {
			want, wantReg = "https://client.example/meta.json", 0
		}
		if got := f.authQuery.Get("client_id"); got != want || f.registered != wantReg {
			t.Errorf("supported %v: client_id %q after %d registrations, want %q after %d", supported, got, f.registered, want, wantReg)
		}
	}
}

// A host that names the authorization server's metadata (.mcp.json's
// authServerMetadataUrl) gets it read from there, not discovered.
func TestConfiguredServerMetadata(t *testing.T) {
	f := standard()
	newFake(t, f)
	a := f.authorizer(t, Config{ServerMetadataURL: f.srv.URL + "/.well-known/oauth-authorization-server" + f.issuerPath})
	if resp, err := f.call(a); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	bad := f.authorizer(t, Config{ServerMetadataURL: f.srv.URL + "/nothing-here"})
	if _, err := f.call(bad); err == nil || !errors.Is(err, ErrNoMetadata) {
		t.Errorf("metadata URL with nothing there: %v", err)
	}
}
