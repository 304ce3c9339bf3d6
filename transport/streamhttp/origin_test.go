package streamhttp

import (
	"net/http"
	"testing"

	"github.com/plainmcp/plainmcp/secret"
)

// TestOrigin checks the origin every credential is kept to: the scheme and
// host lower-cased, the default port made explicit, an IPv6 host in
// brackets, and no user info, path or query.
func TestOrigin(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"http://127.0.0.1/mcp", "http://127.0.0.1:80"},
		{"https://Example.COM/mcp?key=secret", "https://example.com:443"},
		{"HTTPS://user:pass@example.com:8443/", "https://example.com:8443"},
		{"http://[::1]:3000/mcp", "http://[::1]:3000"},
		{"https://[FE80::1]/", "https://[fe80::1]:443"},
	} {
		if got := origin(mustParseURL(t, tc.url)); got != tc.want {
			t.Errorf("origin(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

// TestServerURLText checks that requests are made from the configured
// URL's text as it reads back after parsing.
func TestServerURLText(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"},
		{"https://example.com/a b", "https://example.com/a%20b"},
	} {
		u, text, err := parseServerURL(tc.raw)
		if err != nil {
			t.Fatalf("parseServerURL(%q): %v", tc.raw, err)
		}
		if text != tc.want || u.String() != tc.want {
			t.Errorf("parseServerURL(%q) = %q (URL %q), want %q", tc.raw, text, u, tc.want)
		}
	}
}

// TestPlainConfigNeedsNoLayers checks that a transport that owns its
// client and has no headers, credentials or hook sends through its pool
// directly, and that any of them puts their layers back.
func TestPlainConfigNeedsNoLayers(t *testing.T) {
	wrap := func(next http.RoundTripper) http.RoundTripper { return next }
	for _, tc := range []struct {
		name  string
		cfg   Config
		outer string
	}{
		{"plain", Config{}, "pool"},
		{"bearer", Config{BearerToken: secret.New("tok-0123456789")}, "headers"},
		{"hook", Config{Authorize: wrap}, "headers"},
		{"client", Config{Client: &http.Client{}}, "guard"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.URL = "http://127.0.0.1:1/mcp"
			b, err := newHTTPBase(&tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := "other"
			switch rt := b.client.Transport.(type) {
			case *http.Transport:
				if rt == b.owned {
					got = "pool"
				}
			case *headerRoundTripper:
				got = "headers"
			case *originGuard:
				got = "guard"
			}
			if got != tc.outer {
				t.Errorf("outermost round-tripper %s, want %s", got, tc.outer)
			}
		})
	}
}
