package streamhttp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The table benchmarks compare what the server spends on each client; for
// that to measure the clients and not their requests, both must send the
// same bytes. Here each side, in each era, connects, calls both tools and
// lists the tools, and every POST it sends — headers and body — must be
// the same as the floor's (the server's checks of bench_server_test.go
// see to it that both send what the era requires, _meta included). The
// GET stream plainmcp opens in the handshake era, which the floor does not,
// is left out.
func TestBenchClientsSendTheSame(t *testing.T) {
	for _, col := range tableColumns {
		t.Run(col.name, func(t *testing.T) {
			w := newWireServer(t, col.cfg)
			ours := w.posts(t, oursDialer)
			floor := w.posts(t, floorDialer)
			if len(ours) < 3 {
				t.Fatalf("only %d POSTs seen", len(ours))
			}
			if diff := cmp.Diff(floor, ours); diff != "" {
				t.Errorf("plainmcp's POSTs differ from the floor's (-floor +plainmcp):\n%s", diff)
			}
		})
	}
}

// wireServer is a bench server that keeps every POST it is sent.
type wireServer struct {
	srv  *httptest.Server
	cfg  benchConfig
	mu   sync.Mutex
	seen []string
}

func newWireServer(t *testing.T, cfg benchConfig) *wireServer {
	w := &wireServer{cfg: cfg}
	bench := &benchServer{cfg: cfg, pages: benchPages(0), big: []byte(`{"content":[{"type":"text","text":"x"}],"isError":false}`)}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			dump, err := httputil.DumpRequest(r, true) // and puts back the body
			if err != nil {
				t.Error(err)
			}
			w.mu.Lock()
			w.seen = append(w.seen, string(dump))
			w.mu.Unlock()
		}
		bench.ServeHTTP(rw, r)
	}))
	t.Cleanup(w.srv.Close)
	return w
}

// posts returns every POST a client sends while it connects, calls echo
// and big, lists the tools and closes.
func (w *wireServer) posts(t *testing.T, dial tableDialer) []string {
	w.mu.Lock()
	w.seen = nil
	w.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := dial(ctx, w.srv.URL, w.cfg.Stateless)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.callTool(ctx, "echo", len(benchText)); err != nil {
		t.Fatal(err)
	}
	if err := c.callTool(ctx, "big", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := c.list(ctx); err != nil {
		t.Fatal(err)
	}
	c.close()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen
}

// The bench server process answers both clients, counts the connections
// they open and reports its CPU time, which grows as it works.
func TestBenchServerProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	p := startProcServer(t, benchConfig{Stateless: true})
	before := p.stats(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, dial := range []tableDialer{oursDialer, floorDialer} {
		c, err := dial(ctx, p.URL, true)
		if err != nil {
			t.Fatal(err)
		}
		for range 50 {
			if err := c.callTool(ctx, "echo", len(benchText)); err != nil {
				t.Fatal(err)
			}
		}
		c.close()
	}
	after := p.stats(t)
	if got := after.Conns - before.Conns; got != 2 {
		t.Errorf("the server accepted %d connections for two clients calling one at a time, want 2", got)
	}
	if _, ok := processCPU(); ok && after.CPU <= before.CPU {
		t.Errorf("the server's CPU time went from %v to %v over 100 calls", before.CPU, after.CPU)
	}
}
