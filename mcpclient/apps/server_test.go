package apps

import (
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// readServer starts a handshake-era MCP server (package fakemcp) that
// answers every resources/read with contents (a JSON array), and a
// session to it; both end with the test.
func readServer(t *testing.T, contents string) (*fakemcp.Server, *mcpclient.Session) {
	t.Helper()
	f := fakemcp.New(t)
	f.Result("initialize", `{"protocolVersion":"2025-06-18","capabilities":{"resources":{}},"serverInfo":{"name":"apps-test","version":"1"}}`)
	f.Result("resources/read", `{"contents":`+contents+`}`)
	return f, fakemcp.Connect(t, f, mcpclient.Connect, &mcpclient.Options{UI: true, Era: mcpclient.EraHandshake})
}

// asked returns the URIs f's resources/read was called with.
func asked(f *fakemcp.Server) []string {
	var uris []string
	for _, p := range f.ParamsOf("resources/read") {
		uri, _ := p["uri"].(string)
		uris = append(uris, uri)
	}
	return uris
}
