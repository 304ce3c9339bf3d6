package task

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// connect starts a session with opts connected to f; both end with the
// test, which fails if a goroutine outlives them.
func connect(t *testing.T, f *fakemcp.Server, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	leakcheck.Check(t)
	return fakemcp.Connect(t, f, mcpclient.Connect, opts)
}

func ctx5s(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

const discoverOK = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},
	"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-server","version":"2"}}}`

// modernServer is a fake stateless-era server.
func modernServer(t *testing.T) *fakemcp.Server {
	f := fakemcp.New(t)
	f.Result("server/discover", discoverOK)
	return f
}

func fail(code jsonrpc.Code, msg string) jsonrpc.Handler {
	return func(context.Context, *jsonrpc.Request) (any, error) { return nil, jsonrpc.NewError(code, "%s", msg) }
}

// sequence answers each request with the next result, the last one again
// once they run out.
func sequence(results ...string) jsonrpc.Handler {
	var mu sync.Mutex
	n := 0
	return func(context.Context, *jsonrpc.Request) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		r := results[min(n, len(results)-1)]
		n++
		return json.RawMessage(r), nil
	}
}

func fastTasks() *Options { return &Options{MinPollInterval: time.Millisecond} }
