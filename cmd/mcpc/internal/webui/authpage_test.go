package webui

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/internal/testkit/fakeauth"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/remote"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// tinyMCP is an MCP server over HTTP with one tool, "hello".
func tinyMCP() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, err := rpcwire.Decode(body)
		if err != nil || !m.IsRequest() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var result string
		switch m.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"tiny","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"hello","description":"Says hi","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			result = `{"content":[{"type":"text","text":"hi"}]}`
		default:
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(rpcwire.AppendResult(nil, m.ID, json.RawMessage(result)))
	})
}

// loopbackAuth is a host's Auth as mcpc's is made: remote.Dialer's
// login, with the redirect taken by a listener on loopback and the
// authorization URL handed to the page; its tokens in a file, which a
// logout revokes and deletes them from.
type loopbackAuth struct {
	d     *remote.Dialer
	store *oauth.FileStore
	reg   *toolreg.Registry
	sc    *toolreg.ServerConfig
}

func (a *loopbackAuth) StepUpScope(server string, err error) (string, bool) {
	var he *streamhttp.HTTPError
	if server != a.sc.Name || !errors.As(err, &he) || he.StatusCode != http.StatusForbidden {
		return "", false
	}
	return a.d.StepUpScope(a.sc)
}

func (a *loopbackAuth) LoggedIn(ctx context.Context, server string) bool {
	tok, err := a.store.Load(ctx, a.sc.URL)
	return server == a.sc.Name && err == nil && tok != nil
}

func (a *loopbackAuth) Logout(ctx context.Context, server string) (LoggedOut, error) {
	tok, err := a.store.Load(ctx, a.sc.URL)
	if err != nil {
		return LoggedOut{}, err
	}
	var out LoggedOut
	if tok != nil {
		out.RevokeErr = oauth.Revoke(ctx, nil, tok)
		out.Revoked = out.RevokeErr == nil
	}
	out.HadTokens, err = a.store.Delete(ctx, a.sc.URL)
	return out, err
}

func (a *loopbackAuth) Login(ctx context.Context, server string, stepUp bool, show func(string) error) error {
	got := make(chan *url.URL, 1)
	var cb *httptest.Server
	cb = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := *r.URL
		u.Scheme, u.Host = "http", cb.Listener.Addr().String()
		select {
		case got <- &u:
		default:
		}
		io.WriteString(w, "authorized; close this tab")
	}))
	defer cb.Close()
	// The flow runs apart from this call; when the call gives up, so does
	// the step, as mcpc's does.
	gaveUp := make(chan struct{})
	defer close(gaveUp)
	step := oauth.UserStepFunc(func(ctx context.Context, authURL *url.URL) (*url.URL, error) {
		if err := show(authURL.String()); err != nil {
			return nil, err
		}
		select {
		case u := <-got:
			return u, nil
		case <-gaveUp:
			return nil, errors.New("the login gave up")
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	opts := &oauth.LoginOptions{UserStep: step, RedirectURL: cb.URL + "/callback"}
	if stepUp {
		scope, ok := a.d.StepUpScope(a.sc)
		if !ok {
			return errors.New("no step-up asked for")
		}
		opts.Scopes = strings.Fields(scope)
	}
	return a.d.Login(ctx, a.reg, a.sc, opts)
}

// startAuthPage serves a page over one http server, "secure", behind a
// fake OAuth authorization server, with no token yet.
func startAuthPage(t *testing.T) (*Server, *fakeauth.Server) {
	t.Helper()
	return startAuthPageOver(t, tinyMCP())
}

// startAuthPageOver is startAuthPage with mcp as the server behind the
// authorization.
func startAuthPageOver(t *testing.T, mcp http.Handler) (*Server, *fakeauth.Server) {
	t.Helper()
	as := fakeauth.New(mcp)
	t.Cleanup(as.Close)
	sc := &toolreg.ServerConfig{Name: "secure", Type: "http", URL: as.URL() + "/mcp"}
	store := &oauth.FileStore{Path: filepath.Join(t.TempDir(), "tokens.json")}
	d := &remote.Dialer{TokenStore: store}
	reg, err := toolreg.New(context.Background(), &toolreg.Config{Servers: []*toolreg.ServerConfig{sc}}, &toolreg.Options{Dial: d.Dial})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	srv, err := Start(&Options{Registry: reg, Trace: &Trace{}, Auth: &loopbackAuth{d: d, store: store, reg: reg, sc: sc}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, as
}

// authorize does in the test what the person's browser does with the
// authorization URL: it follows it to the redirect, and loads that.
func authorize(t *testing.T, authURL string) {
	t.Helper()
	u, err := url.Parse(authURL)
	if err != nil {
		t.Fatal(err)
	}
	redirect, err := fakeauth.Browser(u)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(redirect.String())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
