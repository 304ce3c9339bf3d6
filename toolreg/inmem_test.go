package toolreg

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// inMemory serves every server of a registry in this process: the demo
// server over an in-memory pipe, with as many extra tools as extra says
// and the skills skills says (by server name; the demo skills if none),
// counting the requests the registry sends (and its dials, as method
// "dial"). A server of another type than "memory" is dialed by dialStdio.
type inMemory struct {
	extra    map[string]int
	skills   map[string][]demoserver.Skill
	pageSize int

	mu       sync.Mutex
	requests map[string]*atomic.Int64 // by server name and method
	wg       sync.WaitGroup
}

func (m *inMemory) dial(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	if sc.Type != "memory" {
		return dialStdio(ctx, sc, opts)
	}
	m.count(sc.Name, "dial")
	client, server := transport.Pipe()
	srv := demoserver.New(&demoserver.Options{Name: sc.Name, ExtraTools: m.extra[sc.Name], PageSize: m.pageSize, Skills: m.skills[sc.Name]})
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		srv.Serve(context.Background(), server)
	}()
	return mcpclient.Connect(ctx, &counting{Stream: client, count: func(method string) { m.count(sc.Name, method) }}, opts)
}

func (m *inMemory) count(server, method string) {
	m.mu.Lock()
	if m.requests == nil {
		m.requests = map[string]*atomic.Int64{}
	}
	c := m.requests[server+" "+method]
	if c == nil {
		c = new(atomic.Int64)
		m.requests[server+" "+method] = c
	}
	m.mu.Unlock()
	c.Add(1)
}

// sent returns how many requests of method the registry sent to server.
func (m *inMemory) sent(server, method string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c := m.requests[server+" "+method]; c != nil {
		return c.Load()
	}
	return 0
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
	tb.Cleanup(func() { r.Close(); m.wg.Wait() })
	return r
}

// counting is a client stream that reports the method of every request
// it writes.
type counting struct {
	jsonrpc.Stream
	count func(method string)
}

func (c *counting) Write(ctx context.Context, frame []byte) error {
	if _, rest, ok := bytes.Cut(frame, []byte(`"method":"`)); ok {
		if method, _, ok := bytes.Cut(rest, []byte(`"`)); ok && bytes.Contains(frame, []byte(`"id":`)) {
			c.count(string(method))
		}
	}
	return c.Stream.Write(ctx, frame)
}
