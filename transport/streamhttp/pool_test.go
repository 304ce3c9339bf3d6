package streamhttp

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A burst of concurrent calls opens one connection per call in flight, and
// the pool keeps them: a second burst as large opens none. The burst is
// larger than any fixed idle limit of a round size (256), which would
// close what the first burst opened and make the next one open it again.
func TestPoolKeepsBurst(t *testing.T) {
	const n = 300
	var conns atomic.Int64
	arrived := make(chan struct{}, n)
	var mu sync.Mutex
	gate := make(chan struct{})
	bench := &benchServer{cfg: benchConfig{Stateless: true}, pages: benchPages(0)}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		g := gate
		mu.Unlock()
		arrived <- struct{}{}
		select { // every call of the burst holds its connection until all have come
		case <-g:
		case <-time.After(20 * time.Second):
		}
		bench.ServeHTTP(w, r)
	}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := dialOurs(ctx, srv.URL, true)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	for burst := 1; burst <= 2; burst++ {
		errs := make(chan error, n)
		for range n {
			go func() { errs <- c.callTool(ctx, "echo", len(benchText)) }()
		}
		for range n {
			select {
			case <-arrived:
			case <-ctx.Done():
				t.Fatalf("burst %d: not every call reached the server", burst)
			}
		}
		mu.Lock()
		close(gate)
		gate = make(chan struct{})
		mu.Unlock()
		for range n {
			if err := <-errs; err != nil {
				t.Fatalf("burst %d: %v", burst, err)
			}
		}
		if got := conns.Load(); got != n {
			t.Fatalf("after burst %d of %d calls the server accepted %d connections, want %d", burst, n, got, n)
		}
	}
}
