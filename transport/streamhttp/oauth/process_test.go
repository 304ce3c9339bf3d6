package oauth

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
)

// TestMain lets the test binary act as another process sharing a token
// file: with PLAINMCP_OAUTH_HELPER set, it makes one request to the
// server named there through an Authorizer on that file, and exits 0 if
// it was answered.
func TestMain(m *testing.M) {
	if os.Getenv("PLAINMCP_OAUTH_HELPER") == "call" {
		childexit.Exit(helperCall(os.Getenv("PLAINMCP_OAUTH_SERVER"), os.Getenv("PLAINMCP_OAUTH_FILE")))
	}
	os.Exit(m.Run())
}

func helperCall(server, path string) int {
	a, err := New(Config{ServerURL: server, RedirectURL: "http://127.0.0.1:9/callback", Store: &FileStore{Path: path}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)}
	resp, err := c.Post(server, "application/json", strings.NewReader(`{}`))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, resp.Status)
		return 1
	}
	return 0
}

// Four processes find the stored token about to expire at once. They
// refresh it once between them: the others wait for the lock, reread the
// file and use the refreshed token; none presents the rotated refresh
// token again, which a provider would answer by revoking the grant.
func TestProcessesShareOneRefresh(t *testing.T) {
	f := standard()
	f.refresh, f.rotate, f.expiresIn, f.laterExpiresIn = true, true, 10, 3600
	newFake(t, f)
	path := filepath.Join(t.TempDir(), "tokens.json")
	if _, err := f.call(f.authorizer(t, Config{Store: &FileStore{Path: path}})); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.CommandContext(context.Background(), os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "PLAINMCP_OAUTH_HELPER=call", "PLAINMCP_OAUTH_SERVER="+f.url(), "PLAINMCP_OAUTH_FILE="+path)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("process %d: %v", i, err)
		}
	}
	if got := f.grants("refresh_token"); got != 1 || f.reused != 0 {
		t.Errorf("got %d refreshes and %d reuses of a rotated refresh token, want 1 and 0", got, f.reused)
	}
}

// Saving a token obtained earlier than the stored one keeps the stored
// one: a slow process does not put back tokens another has replaced.
func TestFileStoreKeepsTheNewerToken(t *testing.T) {
	ctx := context.Background()
	f := &FileStore{Path: filepath.Join(t.TempDir(), "tokens.json")}
	newer := &Token{AccessToken: secretString("new"), Obtained: timeAt(2)}
	older := &Token{AccessToken: secretString("old"), Obtained: timeAt(1)}
	if err := f.Save(ctx, "k", newer); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(ctx, "k", older); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Load(ctx, "k"); got == nil || got.AccessToken.Reveal() != "new" {
		t.Errorf("got %v, want the newer token kept", got)
	}
}

// A token file of the earlier format (one object of tokens by server
// URL) still loads, and is rewritten in the new one.
func TestFileStoreReadsTheEarlierFormat(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tokens.json")
	os.WriteFile(path, []byte(`{"https://a/mcp": {"access_token": "at", "refresh_token": "rt"}}`), 0o600)
	f := &FileStore{Path: path}
	if tok, err := f.Load(ctx, "https://a/mcp"); err != nil || tok == nil || tok.RefreshToken.Reveal() != "rt" {
		t.Fatalf("got %v %v", tok, err)
	}
	if err := f.SaveClient(ctx, "https://as", "http://127.0.0.1:5/callback", &Client{ID: "c"}); err != nil {
		t.Fatal(err)
	}
	if tok, _ := f.Load(ctx, "https://a/mcp"); tok == nil {
		t.Error("the token is lost after a rewrite")
	}
}

// Clients are registered once per (issuer, redirect URL) and store:
// later Authorizers on the store (later runs) reuse the registration,
// and a login forced anew does too.
func TestRegistrationReusedFromTheStore(t *testing.T) {
	for _, store := range []TokenStore{&MemoryStore{}, &FileStore{Path: filepath.Join(t.TempDir(), "tokens.json")}} {
		f := newFake(t, standard())
		for range 2 {
			a := f.authorizer(t, Config{Store: store})
			if err := a.Login(context.Background(), &LoginOptions{Force: true}); err != nil {
				t.Fatal(err)
			}
		}
		if f.registered != 1 || f.issued != 2 {
			t.Errorf("%T: got %d registrations for %d tokens, want 1 for 2", store, f.registered, f.issued)
		}
		other := f.authorizer(t, Config{Store: store, RedirectURL: "http://127.0.0.1:10/callback"})
		if err := other.Login(context.Background(), &LoginOptions{Force: true}); err != nil || f.registered != 2 {
			t.Errorf("%T: another redirect URL: %v, %d registrations, want 2", store, err, f.registered)
		}
	}
}
