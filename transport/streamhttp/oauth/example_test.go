package oauth_test

import (
	"fmt"

	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// A 401's WWW-Authenticate header may hold several challenges; the Bearer
// one names the protected resource metadata and the scope to ask for.
func ExampleParseChallenges() {
	cs, err := oauth.ParseChallenges([]string{
		`DPoP algs="ES256", Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="files:read"`,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cs {
		fmt.Println(c.Scheme, c.Params["resource_metadata"], c.Params["scope"], c.Params["algs"])
	}
	// Output:
	// DPoP   ES256
	// Bearer https://mcp.example/.well-known/oauth-protected-resource/mcp files:read
}
