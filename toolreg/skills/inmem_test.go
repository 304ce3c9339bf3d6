package skills_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// inMemory serves every server of a registry in this process: the demo
// server over an in-memory pipe, with the skills skills says (by server
// name; the demo skills if none), counting the requests the registry
// sends.
type inMemory struct {
	skills map[string][]demoserver.Skill

	mu       sync.Mutex
	requests map[string]int64          // by server name and method
	ends     map[string]jsonrpc.Stream // each server's end of its pipe
	wg       sync.WaitGroup
}

func (m *inMemory) dial(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	client, server := transport.Pipe()
	m.mu.Lock()
	if m.ends == nil {
		m.ends = map[string]jsonrpc.Stream{}
	}
	m.ends[sc.Name] = server
	m.mu.Unlock()
	srv := demoserver.New(&demoserver.Options{Name: sc.Name, Skills: m.skills[sc.Name]})
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		srv.Serve(context.Background(), server)
	}()
	return mcpclient.Connect(ctx, &counting{Stream: client, count: func(method string) { m.count(sc.Name, method) }}, opts)
}

func (m *inMemory) count(server, method string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.requests == nil {
		m.requests = map[string]int64{}
	}
	m.requests[server+" "+method]++
}

// sent returns how many requests of method the registry sent to server.
func (m *inMemory) sent(server, method string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.requests[server+" "+method]
}

// notify sends the client of server a notification of method, as if the
// server had (the pipe takes writes from any goroutine).
func (m *inMemory) notify(tb testing.TB, server, method string) {
	tb.Helper()
	m.mu.Lock()
	end := m.ends[server]
	m.mu.Unlock()
	if err := end.Write(context.Background(), []byte(`{"jsonrpc":"2.0","method":"`+method+`"}`)); err != nil {
		tb.Fatal(err)
	}
}

// newInMemory returns a registry of in-memory demo servers, closed (and
// its servers awaited) when the test ends.
func newInMemory(tb testing.TB, m *inMemory, names ...string) *toolreg.Registry {
	tb.Helper()
	var servers []*toolreg.ServerConfig
	for _, n := range names {
		servers = append(servers, &toolreg.ServerConfig{Name: n, Type: "memory"})
	}
	r, err := toolreg.New(context.Background(), &toolreg.Config{Servers: servers}, &toolreg.Options{Dial: m.dial})
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
