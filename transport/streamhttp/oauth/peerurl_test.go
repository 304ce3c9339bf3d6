package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// remoteWeb answers requests to hosts off this machine from a table, as
// their servers would, and records every request, so that a test can
// see none went to this machine.
type remoteWeb struct {
	mu    sync.Mutex
	pages map[string]*http.Response // by URL
	seen  []string
}

func (w *remoteWeb) RoundTrip(r *http.Request) (*http.Response, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, r.URL.String())
	if resp, ok := w.pages[r.URL.String()]; ok {
		resp.Request = r
		return resp, nil
	}
	return &http.Response{StatusCode: http.StatusNotFound, Body: http.NoBody, Request: r}, nil
}

func jsonPage(v any) *http.Response {
	b, _ := json.Marshal(v)
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(string(b)))}
}

func (w *remoteWeb) reachedThisMachine() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, s := range w.seen {
		u, _ := url.Parse(s)
		if h := u.Hostname(); h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1" || h == "0.0.0.0" {
			out = append(out, s)
		}
	}
	return out
}

// A server that is not on this machine may not steer discovery, token
// requests or the user's browser to services listening on it.
func TestRemoteServerCannotNameThisMachine(t *testing.T) {
	server, _ := url.Parse("https://mcp.example/mcp")
	const prmURL = "https://mcp.example/.well-known/oauth-protected-resource/mcp"
	asMeta := func(member, value string) map[string]any {
		m := map[string]any{"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize",
			"token_endpoint": "https://as.example/token", "code_challenge_methods_supported": []string{"S256"}}
		m[member] = value
		return m
	}
	for _, tc := range []struct {
		name, challenge string
		pages           map[string]*http.Response
		says            string
	}{
		{"the challenge's resource_metadata", "http://localhost:8080/admin/reset", nil, "resource_metadata"},
		{"an authorization server", "", map[string]*http.Response{
			prmURL: jsonPage(map[string]any{"resource": "https://mcp.example/mcp", "authorization_servers": []string{"http://127.0.0.1:9000"}}),
		}, "authorization_servers[0]"},
		{"the authorization_endpoint", "", map[string]*http.Response{
			"https://as.example/.well-known/oauth-authorization-server": jsonPage(asMeta("authorization_endpoint", "http://localhost:3000/open")),
		}, "authorization_endpoint"},
		{"the token_endpoint", "", map[string]*http.Response{
			"https://as.example/.well-known/oauth-authorization-server": jsonPage(asMeta("token_endpoint", "https://0.0.0.0:8443/token")),
		}, "token_endpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			web := &remoteWeb{pages: map[string]*http.Response{
				prmURL: jsonPage(map[string]any{"resource": "https://mcp.example/mcp", "authorization_servers": []string{"https://as.example"}}),
			}}
			for k, v := range tc.pages {
				web.pages[k] = v
			}
			client := &http.Client{Transport: web}
			ctx := context.Background()
			prm, err := discoverResource(ctx, client, server, tc.challenge)
			if err == nil {
				_, err = discoverServer(ctx, client, prm.AuthorizationServers[0])
			}
			if !errors.Is(err, ErrUnsafeURL) || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "on this machine") {
				t.Errorf("got %v, want ErrUnsafeURL naming %s on this machine", err, tc.says)
			}
			if got := web.reachedThisMachine(); len(got) > 0 {
				t.Errorf("requests went to this machine: %v", got)
			}
		})
	}
}

func TestRemoteRedirectCannotReachThisMachine(t *testing.T) {
	web := &remoteWeb{pages: map[string]*http.Response{
		"https://as.example/.well-known/oauth-authorization-server": {StatusCode: http.StatusFound,
			Header: http.Header{"Location": {"http://127.0.0.1:6379/"}}, Body: http.NoBody},
	}}
	_, err := discoverServer(context.Background(), guardRedirects(&http.Client{Transport: web}), "https://as.example")
	if !errors.Is(err, ErrUnsafeURL) || !strings.Contains(err.Error(), "on this machine") {
		t.Errorf("got %v, want ErrUnsafeURL: the redirect names this machine", err)
	}
	if got := web.reachedThisMachine(); len(got) > 0 {
		t.Errorf("requests went to this machine: %v", got)
	}
}
