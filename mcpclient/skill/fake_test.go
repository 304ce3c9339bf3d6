package skill

import (
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// connect connects a session to f, closed when the test ends.
func connect(t *testing.T, f *fakemcp.Server, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	leakcheck.Check(t)
	return fakemcp.Connect(t, f, mcpclient.Connect, opts)
}
