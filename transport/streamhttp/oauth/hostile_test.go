package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// hostileURLs are endpoint URLs a hostile server may put in metadata: none
// may reach a request, a browser or an opener.
var hostileURLs = map[string]string{
	"javascript": "javascript:alert(document.cookie)//QUERYSECRET",
	"file":       "file:///etc/passwd?QUERYSECRET",
	"data":       "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==?QUERYSECRET",
	"vscode":     "vscode://vscode.git/clone?url=QUERYSECRET",
	"custom":     "x-hostile-app:run?cmd=QUERYSECRET",
	"http":       "http://as.evil.example/authorize?QUERYSECRET",
	"userinfo":   "https://as.example@evil.example/authorize?QUERYSECRET",
	"no scheme":  "//evil.example/authorize?QUERYSECRET",
}

// hostileServer is an MCP server and its authorization server on one
// loopback origin whose metadata the test rewrites: prm and meta replace
// members of the documents served.
type hostileServer struct {
	srv       *httptest.Server
	challenge string // the resource_metadata of the 401, if set
	prm       map[string]any
	meta      map[string]any

	mu       sync.Mutex
	requests []string
}

func newHostile(t *testing.T) *hostileServer {
	h := &hostileServer{prm: map[string]any{}, meta: map[string]any{}}
	h.srv = httptest.NewServer(h)
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hostileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests = append(h.requests, r.Method+" "+r.URL.Path)
	base := h.srv.URL
	switch r.URL.Path {
	case "/mcp":
		ch := `Bearer error="invalid_token"`
		if h.challenge != "" {
			ch += `, resource_metadata="` + h.challenge + `"`
		}
		w.Header().Set("WWW-Authenticate", ch)
		w.WriteHeader(http.StatusUnauthorized)
	case "/.well-known/oauth-protected-resource/mcp":
		doc := map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}}
		for k, v := range h.prm {
			doc[k] = v
		}
		json.NewEncoder(w).Encode(doc)
	case "/.well-known/oauth-authorization-server":
		doc := map[string]any{
			"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "code_challenge_methods_supported": []string{"S256"},
		}
		for k, v := range h.meta {
			doc[k] = v
		}
		json.NewEncoder(w).Encode(doc)
	case "/register":
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"client_id":"c1","token_endpoint_auth_method":"none"}`))
	default:
		http.NotFound(w, r)
	}
}

// run makes one request through an Authorizer whose user step records
// being called, and returns the error and whether the user step ran.
func (h *hostileServer) run(t *testing.T, cfg Config) (error, bool) {
	t.Helper()
	var stepped bool
	cfg.ServerURL = h.srv.URL + "/mcp"
	cfg.RedirectURL = "http://127.0.0.1:9/callback"
	cfg.UserStep = UserStepFunc(func(context.Context, *url.URL) (*url.URL, error) {
		stepped = true
		return nil, errors.New("the user step ran")
	})
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)}
	resp, err := c.Post(cfg.ServerURL, "application/json", strings.NewReader(`{}`))
	if err == nil {
		resp.Body.Close()
		return errors.New("no error"), stepped
	}
	return err, stepped
}

// checkRefused: the flow failed with ErrUnsafeURL naming what, before any
// user step and any request to the token or registration endpoint, and
// without quoting the URL.
func (h *hostileServer) checkRefused(t *testing.T, err error, stepped bool, what string) {
	t.Helper()
	if !errors.Is(err, ErrUnsafeURL) {
		t.Errorf("got %v, want ErrUnsafeURL", err)
	}
	if stepped {
		t.Error("the user step ran")
	}
	if msg := err.Error(); !strings.Contains(msg, what) || strings.Contains(msg, "QUERYSECRET") || strings.Contains(msg, "evil") {
		t.Errorf("the error %q does not name %q, or quotes the URL", msg, what)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.requests {
		if strings.HasSuffix(r, "/token") || strings.HasSuffix(r, "/register") || strings.HasSuffix(r, "/authorize") {
			t.Errorf("a request went out after the refusal: %s", r)
		}
	}
}

func TestHostileMetadataEndpointsRefused(t *testing.T) {
	for _, member := range []string{"authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint", "jwks_uri", "issuer"} {
		for scheme, raw := range hostileURLs {
			t.Run(member+"/"+scheme, func(t *testing.T) {
				h := newHostile(t)
				h.meta[member] = raw
				err, stepped := h.run(t, Config{})
				h.checkRefused(t, err, stepped, "the authorization server's "+member)
			})
		}
	}
}

func TestHostileAuthorizationServersRefused(t *testing.T) {
	for scheme, raw := range hostileURLs {
		t.Run(scheme, func(t *testing.T) {
			h := newHostile(t)
			h.prm["authorization_servers"] = []string{raw}
			err, stepped := h.run(t, Config{})
			h.checkRefused(t, err, stepped, "authorization_servers[0]")
		})
	}
	t.Run("a later entry", func(t *testing.T) {
		h := newHostile(t)
		h.prm["authorization_servers"] = []string{h.srv.URL, hostileURLs["javascript"]}
		err, stepped := h.run(t, Config{})
		h.checkRefused(t, err, stepped, "authorization_servers[1]")
	})
}

func TestHostileChallengeMetadataURLRefused(t *testing.T) {
	for scheme, raw := range hostileURLs {
		t.Run(scheme, func(t *testing.T) {
			h := newHostile(t)
			h.challenge = raw
			err, stepped := h.run(t, Config{})
			h.checkRefused(t, err, stepped, "resource_metadata")
		})
	}
}

func TestHostileConfiguredMetadataURLRefused(t *testing.T) {
	for scheme, raw := range hostileURLs {
		t.Run(scheme, func(t *testing.T) {
			h := newHostile(t)
			err, stepped := h.run(t, Config{ServerMetadataURL: raw})
			h.checkRefused(t, err, stepped, "metadata URL")
		})
	}
}

// The flow itself runs on loopback http and https alike: the checks
// refuse only what they must.
func TestLoopbackMetadataAccepted(t *testing.T) {
	h := newHostile(t)
	err, stepped := h.run(t, Config{})
	if !stepped {
		t.Errorf("the user step did not run: %v", err)
	}
}

func TestRedirectURLChecked(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080/callback", true},
		{"http://localhost/cb", true},
		{"http://[::1]:9/cb", true},
		{"https://app.example/cb", true},
		{"http://app.example/cb", false},
		{"javascript:alert(1)", false},
		{"vscode://plainmcp/cb", false},
		{"file:///tmp/cb", false},
	} {
		_, err := New(Config{ServerURL: "https://mcp.example/mcp", RedirectURL: tc.url, UserStep: followOnce})
		if tc.ok != (err == nil) || !tc.ok && (!errors.Is(err, ErrUnsafeURL) || !strings.Contains(err.Error(), "RedirectURL")) {
			t.Errorf("RedirectURL %q: %v", tc.url, err)
		}
	}
}

// What a server or an authorization server says reaches an error
// printable and bounded: a status line's reason phrase, a token_type, an
// issuer or a metadata URL of any length.
func TestHostileTextInErrorsBounded(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	rawStatus := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		status := "500 Internal Server Error"
		if r.URL.Path == "/esc" {
			status = "500 \x1b]0;owned\x07\x1b[2J" + long
		}
		buf.WriteString("HTTP/1.1 " + status + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		buf.Flush()
	}))
	t.Cleanup(rawStatus.Close)
	for _, tc := range []struct {
		name string
		run  func(t *testing.T) error
	}{
		{"reason phrase", func(t *testing.T) error {
			h := newHostile(t)
			h.challenge = rawStatus.URL + "/esc"
			err, _ := h.run(t, Config{})
			return err
		}},
		{"long metadata URL", func(t *testing.T) error {
			h := newHostile(t)
			h.challenge = rawStatus.URL + "/" + long
			err, _ := h.run(t, Config{})
			return err
		}},
		{"long issuer", func(t *testing.T) error {
			h := newHostile(t)
			h.prm["authorization_servers"] = []string{h.srv.URL + "/" + long}
			err, _ := h.run(t, Config{})
			return err
		}},
		{"long token_type", func(t *testing.T) error {
			f := standard()
			f.tokenType = "\x1b[2J" + long
			newFake(t, f)
			_, err := f.call(f.authorizer(t, Config{}))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(t)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if len(msg) > 2000 || strings.ContainsFunc(msg, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Errorf("an error of %d bytes, or with control characters: %.300q", len(msg), msg)
			}
		})
	}
}
