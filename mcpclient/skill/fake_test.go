package skill

import (
	"testing"

	"github.com/plainmcp/plainmcp/internal/fakemcp"
	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// fakeServer is the scriptable MCP server of package fakemcp, on the far
// end of an in-memory pipe. Its default answer to initialize declares no
// extension: a test that wants skills offered sets its own.
type fakeServer = fakemcp.Server

func newFakeServer(t *testing.T) *fakeServer { return fakemcp.New(t) }

// connect connects a session to f, closed when the test ends.
func connect(t *testing.T, f *fakeServer, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	leakcheck.Check(t)
	return fakemcp.Connect(t, f, mcpclient.Connect, opts)
}
