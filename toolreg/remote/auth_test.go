package remote

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/fakeauth"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// A server that answers 401 is reported as needing authorization, with
// its authorization server, not as failed; Authorize runs the flow, and
// the tokens it stored serve a later registry without the user.
func TestNeedsAuthThenAuthorize(t *testing.T) {
	leakcheck.Check(t)
	inner := tinyHTTPServer(t)
	as := fakeauth.New(inner.Config.Handler)
	t.Cleanup(as.Close)
	store := &oauth.MemoryStore{}
	sc := &toolreg.ServerConfig{Name: "web", Type: "http", URL: as.URL() + "/mcp"}
	d := &Dialer{TokenStore: store}
	r := newRegistry(t, d, sc)
	st := r.Servers()[0]
	if st.State != toolreg.StateNeedsAuth || st.AuthServer != as.URL() || !errors.Is(st.Err, toolreg.ErrNeedsAuth) {
		t.Fatalf("status: %+v", st)
	}
	if _, err := r.Call(ctx10(t), "mcp__web__hello", nil); err == nil {
		t.Fatal("a call to a server that needs authorization succeeded")
	}

	steps := 0
	step := oauth.UserStepFunc(func(_ context.Context, u *url.URL) (*url.URL, error) {
		steps++
		return fakeauth.Browser(u)
	})
	if err := d.Authorize(ctx10(t), r, sc, step, "http://127.0.0.1:1/callback"); err != nil {
		t.Fatal(err)
	}
	if st := r.Servers()[0]; st.State != toolreg.StateConnected || steps != 1 {
		t.Fatalf("after Authorize: %+v, %d user steps", st, steps)
	}
	if res, err := r.Call(ctx10(t), "mcp__web__hello", nil); err != nil || res.Text() != "hi" {
		t.Fatalf("%+v %v", res, err)
	}

	// A new registry with the same store connects without the user.
	r2 := newRegistry(t, &Dialer{TokenStore: store}, sc)
	if st := r2.Servers()[0]; st.State != toolreg.StateConnected {
		t.Fatalf("second registry: %+v", st)
	}
	// A token refused later is refreshed, without the user: the
	// registry keeps the OAuth client that obtained it.
	as.Revoke()
	if res, err := r.Call(ctx10(t), "mcp__web__hello", nil); err != nil || res.Text() != "hi" || steps != 1 {
		t.Fatalf("after a revocation: %+v %v, %d user steps", res, err, steps)
	}
	if err := d.Authorize(ctx10(t), r, &toolreg.ServerConfig{Name: "nope", Type: "http", URL: sc.URL}, step, "http://127.0.0.1:1/callback"); !errors.Is(err, toolreg.ErrUnknownServer) {
		t.Errorf("Authorize of an unknown server: %v", err)
	}
}

// A server that refuses the configured credentials with a 401 needs
// authorization too, and Authorize will not replace credentials the
// config gives.
func TestNeedsAuthWithConfiguredCredentials(t *testing.T) {
	leakcheck.Check(t)
	inner := tinyHTTPServer(t)
	as := fakeauth.New(inner.Config.Handler)
	t.Cleanup(as.Close)
	sc := &toolreg.ServerConfig{Name: "web", Type: "http", URL: as.URL() + "/mcp", Headers: secretMap(map[string]string{"Authorization": "Basic bm90OnZhbGlk"})}
	d := &Dialer{}
	r := newRegistry(t, d, sc)
	st := r.Servers()[0]
	if st.State != toolreg.StateNeedsAuth || !errors.Is(st.Err, toolreg.ErrNeedsAuth) || st.AuthServer != "" {
		t.Fatalf("status: %+v", st)
	}
	step := oauth.UserStepFunc(func(_ context.Context, u *url.URL) (*url.URL, error) { return fakeauth.Browser(u) })
	if err := d.Authorize(ctx10(t), r, sc, step, "http://127.0.0.1:1/callback"); err == nil || !strings.Contains(err.Error(), "credentials from its config") {
		t.Errorf("Authorize: %v", err)
	}
}

// The Dialer keeps each server's OAuth client across connections, but
// not its token past the store: once the token is deleted from the store
// (a logout), the server's next connection sends none and the server
// needs authorization again, although its access token is still good.
func TestReconnectAfterTheTokenIsDeleted(t *testing.T) {
	leakcheck.Check(t)
	inner := tinyHTTPServer(t)
	as := fakeauth.New(inner.Config.Handler)
	t.Cleanup(as.Close)
	store := &oauth.FileStore{Path: filepath.Join(t.TempDir(), "tokens.json")}
	sc := &toolreg.ServerConfig{Name: "web", Type: "http", URL: as.URL() + "/mcp"}
	d := &Dialer{TokenStore: store}
	r := newRegistry(t, d, sc)
	step := oauth.UserStepFunc(func(_ context.Context, u *url.URL) (*url.URL, error) { return fakeauth.Browser(u) })
	if err := d.Authorize(ctx10(t), r, sc, step, "http://127.0.0.1:1/callback"); err != nil {
		t.Fatal(err)
	}
	if found, err := store.Delete(ctx10(t), sc.URL); err != nil || !found {
		t.Fatalf("Delete: %v %v", found, err)
	}
	if err := r.Reconnect(ctx10(t), "web"); !errors.Is(err, toolreg.ErrNeedsAuth) {
		t.Errorf("Reconnect after the deletion: %v, want ErrNeedsAuth", err)
	}
	if st := r.Servers()[0]; st.State != toolreg.StateNeedsAuth {
		t.Errorf("status after the deletion: %+v", st)
	}
}
