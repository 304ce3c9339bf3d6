package oauth

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// callCtx POSTs to f's MCP endpoint through a's round-tripper under ctx.
func (f *fake) callCtx(ctx context.Context, a *Authorizer) (*http.Response, error) {
	c := &http.Client{Transport: a.RoundTripper(http.DefaultTransport)}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.url(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	resp, err := c.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return resp, err
}

// A request whose deadline comes while the user is still in the browser
// returns at its deadline; the login goes on, and the next request joins
// it rather than starting a second flow with a new state.
func TestPendingLoginOutlivesAShortRequest(t *testing.T) {
	f := newFake(t, standard())
	release := make(chan struct{})
	var mu sync.Mutex
	var states []string
	step := UserStepFunc(func(ctx context.Context, u *url.URL) (*url.URL, error) {
		mu.Lock()
		states = append(states, u.Query().Get("state"))
		mu.Unlock()
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return followOnce(ctx, u)
	})
	a := f.authorizer(t, Config{UserStep: step})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := f.callCtx(ctx, a); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("short request: got %v, want its own deadline", err)
	}
	done := make(chan error, 1)
	go func() {
		resp, err := f.callCtx(context.Background(), a)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = errors.New(resp.Status)
		}
		done <- err
	}()
	close(release) // the user finishes the first (and only) flow
	if err := <-done; err != nil {
		t.Fatalf("request behind the login: %v", err)
	}
	if len(states) != 1 || f.registered != 1 || f.issued != 1 {
		t.Errorf("got %d flows, %d registrations, %d tokens; want 1 of each", len(states), f.registered, f.issued)
	}
}

func TestUserStepTimeoutNamesItsLimit(t *testing.T) {
	f := newFake(t, standard())
	step := UserStepFunc(func(ctx context.Context, u *url.URL) (*url.URL, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	a := f.authorizer(t, Config{UserStep: step, UserStepTimeout: 20 * time.Millisecond})
	_, err := f.call(a)
	if !errors.Is(err, ErrUserStepTimeout) || !strings.Contains(err.Error(), "UserStepTimeout") {
		t.Fatalf("got %v, want ErrUserStepTimeout naming Config.UserStepTimeout", err)
	}
}

// Without a user, the server's 401 comes back as it came, discovery has
// named the authorization server, and no client was registered.
func TestNoClientRegisteredWithoutAUser(t *testing.T) {
	f := newFake(t, standard())
	a, err := New(Config{ServerURL: f.url(), RedirectURL: "http://127.0.0.1:9/cb"})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		resp, err := f.call(a)
		if err != nil || resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("got %v %v, want the server's 401", resp, err)
		}
	}
	if f.registered != 0 {
		t.Errorf("got %d registrations without a user, want 0", f.registered)
	}
	if got := a.AuthServer(); got != f.srv.URL {
		t.Errorf("AuthServer: got %q, want %q", got, f.srv.URL)
	}
	// A login with a user then registers once and authorizes.
	if err := a.Login(context.Background(), &LoginOptions{UserStep: followOnce}); err != nil {
		t.Fatal(err)
	}
	if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK || f.registered != 1 {
		t.Fatalf("after login: %v %v, %d registrations", resp, err, f.registered)
	}
}

// concurrently runs n calls through a and returns how many got 200.
func concurrently(t *testing.T, f *fake, a *Authorizer, n int) int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := f.call(a)
			if err == nil && resp.StatusCode == http.StatusOK {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return ok
}

// After the server forgets the access token, 100 concurrent requests
// share one refresh and all succeed.
func TestHundredRequestsShareOneRefresh(t *testing.T) {
	f := standard()
	f.refresh = true
	newFake(t, f)
	step := &countingStep{}
	a := f.authorizer(t, Config{UserStep: step})
	if _, err := f.call(a); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.valid = map[string]bool{}
	f.mu.Unlock()
	if ok := concurrently(t, f, a, 100); ok != 100 {
		t.Errorf("got %d of 100 requests answered, want all", ok)
	}
	if got := f.grants("refresh_token"); got != 1 {
		t.Errorf("got %d refreshes, want 1", got)
	}
	if step.n() != 1 {
		t.Errorf("got %d user steps, want the first only", step.n())
	}
}

// A refresh the authorization server refuses is tried once, logged, and
// followed by one authorization that all 100 requests share.
func TestFailedRefreshIsTriedOnce(t *testing.T) {
	f := standard()
	f.refresh, f.refuseRefresh = true, true
	newFake(t, f)
	step := &countingStep{}
	var log bytes.Buffer
	a := f.authorizer(t, Config{UserStep: step, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if _, err := f.call(a); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.valid = map[string]bool{}
	f.mu.Unlock()
	if ok := concurrently(t, f, a, 100); ok != 100 {
		t.Errorf("got %d of 100 requests answered, want all", ok)
	}
	if got := f.grants("refresh_token"); got != 1 {
		t.Errorf("got %d refreshes, want 1", got)
	}
	if step.n() != 2 {
		t.Errorf("got %d user steps, want 2 (the first login, then one for all)", step.n())
	}
	if !strings.Contains(log.String(), "refreshing the token failed") || !strings.Contains(log.String(), "invalid_grant") ||
		strings.Contains(log.String(), "refresh-1") {
		t.Errorf("log: %q; want the failure with its code and no token", log.String())
	}
}

func TestPromptConsentWithOfflineAccess(t *testing.T) {
	for _, offline := range []bool{true, false} {
		f := standard()
		f.scopesSupported = []string{"mcp"}
		f.asScopes = []string{"mcp"}
		if offline {
			f.asScopes = append(f.asScopes, "offline_access")
		}
		newFake(t, f)
		if _, err := f.call(f.authorizer(t, Config{})); err != nil {
			t.Fatal(err)
		}
		if got := f.authQuery.Get("prompt") == "consent"; got != offline {
			t.Errorf("offline_access %v: prompt %q", offline, f.authQuery.Get("prompt"))
		}
	}
}

// Two Authorizers on one store (two hosts of one process) that both need
// the user run one login between them: the second takes up the token
// the first stored.
func TestOneLoginPerStore(t *testing.T) {
	f := newFake(t, standard())
	step := &countingStep{}
	store := &MemoryStore{}
	a1 := f.authorizer(t, Config{UserStep: step, Store: store})
	a2 := f.authorizer(t, Config{UserStep: step, Store: store})
	var wg sync.WaitGroup
	for _, a := range []*Authorizer{a1, a2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("got %v %v", resp, err)
			}
		}()
	}
	wg.Wait()
	if step.n() != 1 || f.issued != 1 {
		t.Errorf("got %d user steps and %d tokens, want 1 and 1", step.n(), f.issued)
	}
}
