package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// httpDemo is the demo server behind a minimal Streamable HTTP endpoint:
// each POSTed request is answered with its response as JSON, other
// messages with 202. The server cannot send requests of its own through it.
type httpDemo struct {
	url string

	mu      sync.Mutex
	pending map[string]chan []byte // by request id
	headers http.Header            // of the first POST
}

func newHTTPDemo(t *testing.T) *httpDemo {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ours, theirs := transport.Pipe()
	served := make(chan struct{})
	go func() { defer close(served); demoserver.New(nil).Serve(ctx, theirs) }()
	d := &httpDemo{pending: map[string]chan []byte{}}
	read := make(chan struct{})
	go func() {
		defer close(read)
		for {
			frame, err := ours.Read()
			if err != nil {
				return
			}
			var msg struct{ ID json.RawMessage }
			json.Unmarshal(frame, &msg)
			d.mu.Lock()
			if ch := d.pending[string(msg.ID)]; ch != nil {
				ch <- frame
			}
			d.mu.Unlock()
		}
	}()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			d.post(w, r, ours)
		case http.MethodDelete:
		default:
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	}))
	d.url = srv.URL + "/mcp"
	t.Cleanup(func() {
		srv.Close()
		ours.Close()
		cancel()
		<-served
		<-read
	})
	return d
}

func (d *httpDemo) post(w http.ResponseWriter, r *http.Request, stream jsonrpc.Stream) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	var msg struct {
		ID     json.RawMessage
		Method string
	}
	json.Unmarshal(body, &msg)
	ch := make(chan []byte, 1)
	d.mu.Lock()
	if d.headers == nil {
		d.headers = r.Header.Clone()
	}
	request := len(msg.ID) > 0 && msg.Method != ""
	if request {
		d.pending[string(msg.ID)] = ch
	}
	d.mu.Unlock()
	if err := stream.Write(r.Context(), body); err != nil || !request {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	defer func() { d.mu.Lock(); delete(d.pending, string(msg.ID)); d.mu.Unlock() }()
	select {
	case frame := <-ch:
		w.Header().Set("Content-Type", "application/json")
		w.Write(frame)
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
		w.WriteHeader(http.StatusGatewayTimeout)
	}
}

func (d *httpDemo) firstHeaders() http.Header {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.headers
}

func TestAdHocHTTPServer(t *testing.T) {
	leakcheck.Check(t)
	for _, trace := range []bool{false, true} {
		d := newHTTPDemo(t)
		t.Setenv("MCPC_TEST_TOKEN", "tok-123")
		args := []string{"--url", d.url, "--header", "X-Tenant: blue", "--bearer-env", "MCPC_TEST_TOKEN",
			"call", "echo", `{"text":"over http"}`}
		if trace {
			args = append([]string{"--trace", "--name", "web"}, args...)
		}
		r := runIn(t, t.TempDir(), "", args...)
		r.want(t, exitOK)
		if r.stdout != "over http\n" {
			t.Errorf("trace %v: stdout = %q", trace, r.stdout)
		}
		h := d.firstHeaders()
		if h.Get("X-Tenant") != "blue" || h.Get("Authorization") != "Bearer tok-123" {
			t.Errorf("trace %v: the server got headers %v", trace, h)
		}
		if trace && !strings.Contains(r.stderr, `[web] -> {"jsonrpc":"2.0","id":`) {
			t.Errorf("the trace lacks the server's frames:\n%s", r.stderr)
		}
		if strings.Contains(r.stderr, "tok-123") {
			t.Errorf("the trace shows the token:\n%s", r.stderr)
		}
	}
}
