package streamhttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/secret"
)

func mustParseURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// addHeader is an Authorize hook that sets name: value on every request.
func addHeader(name, value string) func(http.RoundTripper) http.RoundTripper {
	return func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			r = r.Clone(r.Context())
			r.Header.Set(name, value)
			return next.RoundTrip(r)
		})
	}
}

// recorder is a server that records every request it gets.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
}

func newRecorder(t *testing.T, h http.HandlerFunc) *recorder {
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, r.Clone(context.Background()))
		rec.mu.Unlock()
		if h != nil {
			h(w, r)
		}
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) requests() []*http.Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]*http.Request(nil), rec.reqs...)
}

// A redirect of a POST to another origin is not followed, whatever the
// caller's CheckRedirect says; the error names the origin, not the path
// or query, and the other server sees nothing.
func TestRedirectToAnotherOriginRefused(t *testing.T) {
	checkLeaks(t)
	other := newRecorder(t, nil)
	target := other.URL + "/elsewhere?code=target-query-secret"
	want := "refusing to follow a redirect of the MCP endpoint to another origin (" + origin(mustParseURL(t, other.URL)) + ")"
	home := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	})
	allowAll := *home.Client()
	allowAll.CheckRedirect = func(*http.Request, []*http.Request) error { return nil }
	for _, tc := range []struct {
		name   string
		client *http.Client
	}{{"our client", nil}, {"a client that allows every redirect", &allowAll}} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := newStreamable(Config{URL: home.URL + "/mcp?key=endpoint-secret", BearerToken: secret.New("bearer-secret"), Client: tc.client})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			err = h.Write(ctx5(t), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v, want it to say %q", err, want)
			}
			for _, secret := range []string{"elsewhere", "target-query-secret", "endpoint-secret", "bearer-secret"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("the error %q shows %q", err, secret)
				}
			}
			var re *redirectError
			if !errors.As(err, &re) {
				t.Errorf("err = %#v, want a *redirectError in its chain", err)
			}
		})
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

// The legacy transport's GET, which dials, is refused the same way.
func TestLegacyGETRedirectToAnotherOriginRefused(t *testing.T) {
	checkLeaks(t)
	other := newRecorder(t, nil)
	srv := newLegacyServer(t, func(s *legacyServer) {
		s.getFn = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/sse?sessionId=target-secret", http.StatusFound)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := dialLegacy(ctx, srv.config())
	want := "streamhttp: GET " + srv.URL + "/sse: refusing to follow a redirect of the MCP endpoint to another origin (" + origin(mustParseURL(t, other.URL)) + ")"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

// A redirect within the origin is followed as before, credentials and
// all: for a POST (307 keeps the method and body) and for the legacy GET.
func TestRedirectWithinTheOriginFollowed(t *testing.T) {
	checkLeaks(t)
	var mu sync.Mutex
	var got []http.Header
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp2?moved=1", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("POST /mcp2", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		m, err := rpcwire.Decode(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		jsonAnswer(w, m, `{"moved":true}`)
	})
	mux.HandleFunc("GET /sse", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/sse2", http.StatusFound)
	})
	mux.HandleFunc("GET /sse2", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: endpoint\ndata: /messages\n\n")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cfg := Config{
		BearerToken: secret.New("bearer-secret"),
		Headers:     map[string]secret.String{"X-Tenant": secret.New("acme")},
		Authorize:   addHeader("X-Hook", "hook-secret"),
		Client:      srv.Client(),
	}

	cfg.URL = srv.URL + "/mcp"
	h, err := newStreamable(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Write(ctx5(t), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)); err != nil {
		t.Fatal(err)
	}
	if frame, err := readWithin(t, h, 5*time.Second); err != nil || !strings.Contains(string(frame), `"moved":true`) {
		t.Errorf("answer %s, %v", frame, err)
	}

	cfg.URL = srv.URL + "/sse"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := dialLegacy(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()

	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("the redirect targets got %d requests, want 2", len(got))
	}
	for _, hd := range got {
		if hd.Get("Authorization") != "Bearer bearer-secret" || hd.Get("X-Tenant") != "acme" || hd.Get("X-Hook") != "hook-secret" {
			t.Errorf("a same-origin redirect lost credentials: %v", hd)
		}
	}
}

// Within the origin, the caller's CheckRedirect decides, or net/http's
// limit of 10; an error of the caller's keeps its identity but loses the
// URLs' secrets.
func TestRedirectWithinTheOriginLimits(t *testing.T) {
	checkLeaks(t)
	var hops atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		http.Redirect(w, r, "/loop?token=loop-secret", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	write := func(client *http.Client) error {
		h, err := newStreamable(Config{URL: srv.URL + "/mcp?key=endpoint-secret", Client: client})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		return h.Write(ctx5(t), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	}

	err := write(srv.Client())
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") || hops.Load() != 10 {
		t.Errorf("no CheckRedirect: %v after %d requests, want net/http's limit", err, hops.Load())
	}

	errMine := errors.New("mine")
	mine := *srv.Client()
	mine.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 2 {
			return fmt.Errorf("%w: from %s (%s) to %s, query %s", errMine, via[0].URL, via[0].URL.RawQuery, req.URL, req.URL.RawQuery)
		}
		return nil
	}
	hops.Store(0)
	err = write(&mine)
	if !errors.Is(err, errMine) || hops.Load() != 2 {
		t.Errorf("caller's CheckRedirect: %v after %d requests", err, hops.Load())
	}
	for _, secret := range []string{"endpoint-secret", "loop-secret"} {
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("the error %q shows %q", err, secret)
		}
	}
}

// Whatever reaches another origin — here through an Authorize hook that
// sends a request of its own there — goes without credentials: the
// configured headers, the bearer token, what the hook adds, cookies, the
// session and the Mcp-Param-* headers.
func TestGuardStripsCredentialsAcrossOrigins(t *testing.T) {
	checkLeaks(t)
	other := newRecorder(t, nil)
	home := newRecorder(t, nil)
	cfg := Config{
		URL:         home.URL + "/mcp",
		BearerToken: secret.New("bearer-secret"),
		Headers:     map[string]secret.String{"X-Tenant": secret.New("acme-tenant")},
		Authorize:   addHeader("X-Hook-Auth", "hook-secret"),
		Client:      home.Client(),
	}
	b, err := newHTTPBase(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer b.release()
	send := func(u string, header http.Header) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, u, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = header
		resp, err := b.client.Transport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		drain(resp.Body)
	}
	send(home.URL+"/mcp", http.Header{}) // the guard learns the hook's header
	send(other.URL+"/x", http.Header{
		"Authorization":    {"Bearer bearer-secret"},
		"Cookie":           {"sid=cookie-secret"},
		"x-tenant":         {"acme-tenant"}, // not canonical: a hook may write the map
		"Mcp-Session-Id":   {"session-secret"},
		"Mcp-Param-Region": {"eu"},
		"Accept":           {"application/json"},
	})
	if hd := home.requests()[0].Header; hd.Get("X-Hook-Auth") != "hook-secret" || hd.Get("X-Tenant") != "acme-tenant" {
		t.Errorf("home got %v", hd)
	}
	hd := other.requests()[0].Header
	for _, name := range []string{"Authorization", "Cookie", "X-Tenant", "X-Hook-Auth", "Mcp-Session-Id", "Mcp-Param-Region"} {
		if v := hd.Values(name); len(v) > 0 {
			t.Errorf("another origin got %s: %q", name, v)
		}
	}
	if hd.Get("Accept") != "application/json" {
		t.Errorf("another origin lost Accept: %v", hd)
	}
}

// A hook that adds more headers than the guard remembers makes it strip
// everything but a few harmless headers from requests to other origins.
func TestGuardStripsAllWhenTheHookAddsTooMany(t *testing.T) {
	checkLeaks(t)
	other := newRecorder(t, nil)
	home := newRecorder(t, nil)
	hook := func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			r = r.Clone(r.Context())
			for i := range maxHookNames + 5 {
				r.Header.Set(fmt.Sprintf("X-Hook-%d", i), "hook-secret")
			}
			return next.RoundTrip(r)
		})
	}
	cfg := Config{URL: home.URL + "/mcp", Authorize: hook, Client: home.Client()}
	b, err := newHTTPBase(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer b.release()
	for _, u := range []string{home.URL + "/mcp", other.URL + "/x"} {
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Unknown", "maybe-secret")
		resp, err := b.client.Transport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		drain(resp.Body)
	}
	hd := other.requests()[0].Header
	if len(hd.Values("X-Unknown")) > 0 || len(hd.Values("X-Hook-0")) > 0 || len(hd.Values(fmt.Sprintf("X-Hook-%d", maxHookNames+4))) > 0 {
		t.Errorf("another origin got %v", hd)
	}
	if hd.Get("Content-Type") != "application/json" {
		t.Errorf("another origin lost Content-Type: %v", hd)
	}
}

// The pool the transport owns keeps enough idle connections for many
// calls at once: a second burst of concurrent calls opens no new
// connection. The caller's client is left as it is.
func TestOwnedPoolKeepsIdleConnections(t *testing.T) {
	checkLeaks(t)
	const calls = 32
	var mu sync.Mutex
	arrived, release := 0, make(chan struct{})
	var newConns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Hold every call until all have arrived, so each has a connection
		// of its own.
		mu.Lock()
		arrived++
		if arrived == calls {
			close(release)
		}
		ch := release
		mu.Unlock()
		<-ch
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			newConns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	b, err := newHTTPBase(&Config{URL: srv.URL + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.release()
	if b.owned == nil || b.owned.MaxIdleConnsPerHost != idleConnsPerHost || b.owned.MaxIdleConns != 0 {
		t.Fatalf("owned pool: %+v", b.owned)
	}
	burst := func() {
		var wg sync.WaitGroup
		for range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := b.client.Get(srv.URL + "/mcp")
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body) // to EOF: the connection is idle once this returns
				resp.Body.Close()
			}()
		}
		wg.Wait()
	}
	burst()
	first := newConns.Load()
	mu.Lock()
	arrived, release = 0, make(chan struct{})
	mu.Unlock()
	burst()
	if first != calls || newConns.Load() != first {
		t.Errorf("connections: %d for the first burst of %d calls, %d more for the second", first, calls, newConns.Load()-first)
	}

	callers := &http.Transport{}
	b2, err := newHTTPBase(&Config{URL: srv.URL, Client: &http.Client{Transport: callers}})
	if err != nil {
		t.Fatal(err)
	}
	if b2.owned != nil || callers.MaxIdleConnsPerHost != 0 {
		t.Errorf("the caller's transport was taken over or changed")
	}
}
