package streamhttp

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// newMCPHTTPCountingConns is newMCPHTTP with a count of the connections
// its server accepted.
func newMCPHTTPCountingConns(t *testing.T) (*mcpHTTP, *atomic.Int32) {
	f := &mcpHTTP{t: t}
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	conns := new(atomic.Int32)
	f.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	f.srv.Start()
	t.Cleanup(f.srv.Close)
	return f, conns
}

// A server that ends each event stream just after its response: the call
// waits, briefly, for that end, so the connection is back in the pool when
// the next request goes, and calls one after the other share it. (The
// wait here is long, so that a loaded machine cannot make it miss; without
// one, every call here opens a connection.)
func TestSSEAnswersShareOneConnection(t *testing.T) {
	checkLeaks(t)
	f, conns := newMCPHTTPCountingConns(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		sseHeader(w)
		sseEvent(w, "", string(rpcwire.AppendResult(nil, m.ID, []byte(`{}`))))
		// The server is slow to end the stream (the subject of this test).
		time.Sleep(2 * time.Millisecond)
	}
	h, c := dialHTTP(t, f, Config{}, nil)
	h.drainWait = 5 * time.Second
	for range 10 {
		if err := c.Call(ctx5(t), "tools/list", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("10 calls one after the other opened %d connections, want 1", n)
	}
}
