package oauth

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
)

// A token deleted from the store (a logout, here or in another process)
// is not sent by a connection made after: its first request reads the
// store again, finds none, and the server's 401 asks for a new
// authorization, while the Authorizer kept the old token in memory.
func TestNewConnectionSendsNoDeletedToken(t *testing.T) {
	f := standard()
	newFake(t, f)
	store := &FileStore{Path: filepath.Join(t.TempDir(), "tokens.json")}
	steps := &countingStep{}
	a := f.authorizer(t, Config{Store: store, UserStep: steps})
	if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK || steps.n() != 1 {
		t.Fatalf("first call: %v %v, %d user steps", resp, err, steps.n())
	}
	if found, err := store.Delete(context.Background(), f.url()); err != nil || !found {
		t.Fatalf("Delete: %v %v", found, err)
	}
	if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("call after the deletion: %v %v", resp, err)
	}
	if steps.n() != 2 {
		t.Errorf("%d user steps, want 2: the connection after the deletion sent the forgotten token", steps.n())
	}
}

// A connection's token about to expire is not refreshed once the store no
// longer holds it: refreshing would store it again and undo the logout
// that deleted it. The connection sends no token after.
func TestDeletedTokenIsNotRefreshedBack(t *testing.T) {
	f := standard()
	f.refresh, f.expiresIn = true, 3600
	newFake(t, f)
	store := &FileStore{Path: filepath.Join(t.TempDir(), "tokens.json")}
	steps := &countingStep{}
	a := f.authorizer(t, Config{Store: store, UserStep: steps})
	c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)} // one connection throughout
	post := func() int {
		t.Helper()
		resp, err := c.Post(f.url(), "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(); code != http.StatusOK {
		t.Fatalf("first call: %d", code)
	}
	if _, err := store.Delete(context.Background(), f.url()); err != nil {
		t.Fatal(err)
	}
	a.mu.Lock()
	a.tok.Expiry = a.tok.Obtained // inside the refresh margin
	a.mu.Unlock()
	post()
	if n := f.grants("refresh_token"); n != 0 {
		t.Errorf("%d refreshes of a deleted token", n)
	}
	if tok, err := store.Load(context.Background(), f.url()); err != nil || tok != nil || steps.n() != 1 {
		t.Errorf("the store holds %v (%v) after the deletion, with no new login", tok, err)
	}
}
