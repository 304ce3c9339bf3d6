package remote

import (
	"testing"

	"github.com/plainmcp/plainmcp/toolreg"
)

// An Authorization header of any scheme is accepted; a Bearer one becomes
// the bearer token, any other the raw Authorization value, and neither
// stays among the plain headers.
func TestHTTPConfigAuthorizationSchemes(t *testing.T) {
	for _, tc := range []struct{ header, bearer, raw string }{
		{"Bearer abc.def", "abc.def", ""},
		{"Basic dXNlcjpwYXNz", "", "Basic dXNlcjpwYXNz"},
		{"Token t0ken", "", "Token t0ken"},
	} {
		hc, err := httpConfig(&toolreg.ServerConfig{Name: "s", Type: "http", URL: "https://example.com/mcp",
			Headers: map[string]string{"authorization": tc.header, "X-Org": "acme"}})
		if err != nil {
			t.Fatalf("%q: %v", tc.header, err)
		}
		if hc.BearerToken.Reveal() != tc.bearer || hc.Authorization.Reveal() != tc.raw {
			t.Errorf("%q: bearer %q, raw %q", tc.header, hc.BearerToken.Reveal(), hc.Authorization.Reveal())
		}
		if _, ok := hc.Headers["Authorization"]; ok || hc.Headers["X-Org"].Reveal() != "acme" {
			t.Errorf("%q: headers %v", tc.header, hc.Headers)
		}
	}
}
