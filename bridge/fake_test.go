package bridge

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/internal/testkit/memhttp"
)

// reply is one scripted provider answer.
type reply struct {
	status int
	header map[string]string
	body   string
}

// fakeProvider is an httptest server that records every request and
// answers with the scripted replies in order (the last one repeats).
type fakeProvider struct {
	*httptest.Server
	mu      sync.Mutex
	replies []reply
	got     []recorded
}

type recorded struct {
	path   string
	header http.Header
	body   []byte
}

func newFake(t *testing.T, replies ...reply) *fakeProvider {
	t.Helper()
	f := &fakeProvider{replies: replies}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// newMemFake is a fake that only its in-memory client reaches: no
// listener, whose goroutine would keep a synctest bubble's clock from
// moving. Its URL names a loopback port nothing listens on.
func newMemFake(replies ...reply) *fakeProvider {
	f := &fakeProvider{replies: replies}
	f.Server = &httptest.Server{URL: "http://127.0.0.1:9", Config: &http.Server{Handler: http.HandlerFunc(f.serve)}}
	return f
}

func (f *fakeProvider) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	n := len(f.got)
	f.got = append(f.got, recorded{path: r.URL.Path, header: r.Header.Clone(), body: body})
	rep := f.replies[min(n, len(f.replies)-1)]
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if rep.status == 0 {
		rep.status = http.StatusOK
	}
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

// client sends requests to the fake in memory, not over loopback: a
// test in a synctest bubble then waits on nothing but the bubble's clock.
// (The fake's URL still names it.)
func (f *fakeProvider) client() *http.Client {
	return memhttp.Client(f.Config.Handler)
}

func (f *fakeProvider) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.got...)
}

// sameJSON fails the test unless got and want are the same JSON value.
func sameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want JSON: %v", err)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("request JSON (-want +got):\n%s", d)
	}
}
