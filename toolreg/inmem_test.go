package toolreg

import (
	"context"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/memdemo"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// inMemory serves every server of a registry in this process
// (memdemo.Servers); a server of another type than "memory" is dialed by
// dialStdio.
type inMemory struct{ memdemo.Servers }

func (m *inMemory) dial(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	if sc.Type != "memory" {
		return dialStdio(ctx, sc, opts)
	}
	return m.Dial(ctx, sc, opts)
}

// newInMemory returns a registry of in-memory demo servers (dialed by
// m.dial, unless opts.Dial wraps it), closed (and its servers awaited)
// when the test ends.
func newInMemory(tb testing.TB, m *inMemory, opts *Options, names ...string) *Registry {
	tb.Helper()
	var servers []*ServerConfig
	for _, n := range names {
		servers = append(servers, &ServerConfig{Name: n, Type: "memory"})
	}
	return newInMemoryServers(tb, m, opts, servers...)
}

// newInMemoryServers is newInMemory for servers configured beyond their
// names (timeouts, filters).
func newInMemoryServers(tb testing.TB, m *inMemory, opts *Options, servers ...*ServerConfig) *Registry {
	tb.Helper()
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Dial == nil {
		o.Dial = m.dial
	}
	r, err := New(context.Background(), &Config{Servers: servers}, &o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { r.Close(); m.WG.Wait() })
	return r
}
