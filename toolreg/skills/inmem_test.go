package skills_test

import (
	"context"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/memdemo"
	"github.com/plainmcp/plainmcp/toolreg"
)

// newInMemory returns a registry of in-memory demo servers (m.Dial),
// closed (and its servers awaited) when the test ends.
func newInMemory(tb testing.TB, m *memdemo.Servers, names ...string) *toolreg.Registry {
	tb.Helper()
	var servers []*toolreg.ServerConfig
	for _, n := range names {
		servers = append(servers, &toolreg.ServerConfig{Name: n, Type: "memory"})
	}
	r, err := toolreg.New(context.Background(), &toolreg.Config{Servers: servers}, &toolreg.Options{Dial: m.Dial})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { r.Close(); m.WG.Wait() })
	return r
}
