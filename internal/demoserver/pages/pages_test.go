package pages

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// A page is served on loopback under a token; loading it calls its
// visited, and any other path is 404 and calls nothing.
func TestPageCallsVisited(t *testing.T) {
	leakcheck.Check(t)
	s := &Server{}
	defer s.Close()
	var n atomic.Int32
	visited := make(chan struct{}, 4)
	u, err := s.Page("visit-1", func() { n.Add(1); visited <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(u, "http://127.0.0.1:") || !strings.HasSuffix(u, "?id=visit-1") {
		t.Errorf("URL %q", u)
	}
	for _, tc := range []struct {
		url  string
		code int
	}{
		{u[:strings.LastIndex(u, "/")] + "/0000", 404},
		{u[:strings.Index(u, "/visit/")] + "/", 404},
		{u, 200},
	} {
		resp, err := http.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("GET %s: %d, want %d", tc.url, resp.StatusCode, tc.code)
		}
	}
	// The page goes out before the visit counts (see serve): wait for it.
	select {
	case <-visited:
	case <-time.After(5 * time.Second):
	}
	if n.Load() != 1 {
		t.Errorf("visited called %d times, want 1", n.Load())
	}
	s.Close()
	if _, err := s.Page("visit-2", func() {}); err != ErrClosed {
		t.Errorf("Page after Close: %v", err)
	}
	http.DefaultClient.CloseIdleConnections()
}
