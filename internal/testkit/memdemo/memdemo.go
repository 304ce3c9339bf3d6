// Package memdemo serves a registry's servers in the test's own process:
// the demo server (package demoserver) over an in-memory pipe, counting
// the requests the registry sends. It is for tests only (make check keeps
// it out of every program); toolreg's tests and toolreg/skills' share it.
//
//	m := &memdemo.Servers{PageSize: 2}
//	r, err := toolreg.New(ctx, cfg, &toolreg.Options{Dial: m.Dial})
//	...
//	r.Close()
//	m.WG.Wait()
package memdemo

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport"
)

// Servers dials every server it is asked for as a demo server of that
// name, with as many extra tools as Extra says and the skills Skills says
// (by server name; the demo skills if none), and counts the requests each
// is sent (and its dials, as method "dial").
type Servers struct {
	Extra    map[string]int
	Skills   map[string][]demoserver.Skill
	PageSize int

	// WG counts the servers still serving, and whatever else a test
	// adds to it: wait on it after the registry's Close.
	WG sync.WaitGroup

	mu       sync.Mutex
	requests map[string]*atomic.Int64  // by server name and method
	ends     map[string]jsonrpc.Stream // each server's end of its pipe
}

// Dial starts the demo server sc names and connects to it: a Dial for
// toolreg.Options.
func (m *Servers) Dial(ctx context.Context, sc *mcpjson.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	m.count(sc.Name, "dial")
	client, server := transport.Pipe()
	m.mu.Lock()
	if m.ends == nil {
		m.ends = map[string]jsonrpc.Stream{}
	}
	m.ends[sc.Name] = server
	m.mu.Unlock()
	srv := demoserver.New(&demoserver.Options{Name: sc.Name, ExtraTools: m.Extra[sc.Name], PageSize: m.PageSize, Skills: m.Skills[sc.Name]})
	m.WG.Add(1)
	go func() {
		defer m.WG.Done()
		srv.Serve(context.Background(), server)
	}()
	return mcpclient.Connect(ctx, &Counting{Stream: client, Count: func(method string) { m.count(sc.Name, method) }}, opts)
}

func (m *Servers) count(server, method string) {
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

// Sent returns how many requests of method the registry sent to server.
func (m *Servers) Sent(server, method string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c := m.requests[server+" "+method]; c != nil {
		return c.Load()
	}
	return 0
}

// Notify sends the client of server a notification of method, as if the
// server had (the pipe takes writes from any goroutine).
func (m *Servers) Notify(tb testing.TB, server, method string) {
	tb.Helper()
	m.mu.Lock()
	end := m.ends[server]
	m.mu.Unlock()
	if err := end.Write(context.Background(), []byte(`{"jsonrpc":"2.0","method":"`+method+`"}`)); err != nil {
		tb.Fatal(err)
	}
}

// Counting is a client stream that reports the method of every request
// it writes.
type Counting struct {
	jsonrpc.Stream
	Count func(method string)
}

func (c *Counting) Write(ctx context.Context, frame []byte) error {
	if _, rest, ok := bytes.Cut(frame, []byte(`"method":"`)); ok {
		if method, _, ok := bytes.Cut(rest, []byte(`"`)); ok && bytes.Contains(frame, []byte(`"id":`)) {
			c.Count(string(method))
		}
	}
	return c.Stream.Write(ctx, frame)
}
