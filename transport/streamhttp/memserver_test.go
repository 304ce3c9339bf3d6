package streamhttp

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/memhttp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// newMemMCPHTTP is an mcpHTTP that only an in-memory client reaches (see
// dialMemHTTP): no listener, whose goroutines would keep a synctest
// bubble's clock from moving. Its URL names a loopback port nothing
// listens on. Its handlers must answer at once: a response is written
// whole before the client sees it.
func newMemMCPHTTP(t *testing.T) *mcpHTTP {
	f := &mcpHTTP{t: t}
	f.srv = &httptest.Server{URL: "http://127.0.0.1:9", Config: &http.Server{Handler: http.HandlerFunc(f.serve)}}
	return f
}

// dialMemHTTP is dialHTTP over a client that hands each request to f's
// handler in memory, not over loopback.
func dialMemHTTP(t *testing.T, f *mcpHTTP, cfg Config, opts *jsonrpc.Options) (*streamable, *jsonrpc.Conn) {
	t.Helper()
	cfg.Client = memhttp.Client(f.srv.Config.Handler)
	return dialHTTP(t, f, cfg, opts)
}
