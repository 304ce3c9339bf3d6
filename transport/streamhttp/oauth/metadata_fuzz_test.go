package oauth

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// bodyTransport answers every request with the body for its path: the
// protected resource metadata or the authorization server's.
type bodyTransport struct{ resource, server string }

func (b bodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body := b.server
	if strings.Contains(req.URL.Path, "oauth-protected-resource") {
		body = b.resource
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

// FuzzMetadata feeds the metadata discovery whatever a server may answer:
// it never panics, and what it accepts keeps the promises the flow relies
// on — a resource that is the server, at least one authorization server,
// the issuer asked for, a token endpoint.
func FuzzMetadata(f *testing.F) {
	f.Add(`{"resource":"https://mcp.example/mcp","authorization_servers":["https://as.example"]}`,
		`{"issuer":"https://as.example","token_endpoint":"https://as.example/token","authorization_endpoint":"https://as.example/authorize","code_challenge_methods_supported":["S256"]}`)
	f.Add(`{"resource":"https://mcp.example/","authorization_servers":[]}`, `{"issuer":"https://other.example"}`)
	f.Add(`[]`, `null`)
	f.Add(`{"resource":"https://MCP.example/mcp/","authorization_servers":["x"]}`, `{"issuer":"https://as.example","token_endpoint":""}`)
	server, _ := url.Parse("https://mcp.example/mcp")
	f.Fuzz(func(t *testing.T, resource, serverMeta string) {
		client := &http.Client{Transport: bodyTransport{resource, serverMeta}}
		if m, err := discoverResource(context.Background(), client, server, ""); err == nil {
			if !resourceCovers(m.Resource, server) || len(m.AuthorizationServers) == 0 {
				t.Errorf("accepted resource metadata %q for %s", resource, server)
			}
		}
		const issuer = "https://as.example"
		if m, err := discoverServer(context.Background(), client, issuer); err == nil {
			if m.Issuer != issuer || m.TokenEndpoint == "" {
				t.Errorf("accepted server metadata %q", serverMeta)
			}
		}
	})
}
