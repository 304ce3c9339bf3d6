package streamhttp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// A server that refuses Streamable HTTP gets the legacy transport, but only
// for initialize: a refused probe (server/discover) is the caller's to
// judge, and the stream it returns is the same one.
func TestDialFallsBackToHTTPSSE(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, nil) // POST /sse is 405: no Streamable HTTP here
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := Dial(ctx, srv.config())
	if err != nil {
		t.Fatal(err)
	}
	c := jsonrpc.NewConn(st, nil)
	defer c.Close()

	err = c.Call(ctx, "server/discover", nil, nil)
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 405 || !errors.Is(err, transport.ErrRefused) {
		t.Fatalf("the probe: %v, want a refusal", err)
	}
	if st.Legacy() {
		t.Fatal("a refused probe made the stream fall back")
	}
	var res struct{ Method string }
	if err := c.Call(ctx, "initialize", json.RawMessage(`{}`), &res); err != nil || res.Method != "initialize" {
		t.Fatalf("initialize after the fallback: %+v, %v", res, err)
	}
	if !st.Legacy() {
		t.Error("Legacy() is false after the fallback")
	}
	if err := c.Call(ctx, "tools/list", nil, &res); err != nil || res.Method != "tools/list" {
		t.Errorf("the next call: %+v, %v", res, err)
	}
}

// Once a message got through, a later 404 or 405 to initialize (a new
// session after one expired) is an answer, not a reason to switch
// transports.
func TestDialNoFallbackOnceSettled(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	n := 0
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		if n++; n == 1 {
			jsonAnswer(w, m, `{"protocolVersion":"2025-11-25"}`)
			return
		}
		http.Error(w, "no", http.StatusMethodNotAllowed)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := Dial(ctx, Config{URL: f.srv.URL, Client: f.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	c := jsonrpc.NewConn(st, nil)
	defer c.Close()
	if err := c.Call(ctx, "initialize", json.RawMessage(`{}`), nil); err != nil {
		t.Fatal(err)
	}
	err = c.Call(ctx, "initialize", json.RawMessage(`{}`), nil)
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 405 || st.Legacy() {
		t.Errorf("err = %v, legacy = %v; want the 405 and no fallback", err, st.Legacy())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.gets) != 0 {
		t.Errorf("%d GETs: the stream tried HTTP+SSE", len(f.gets))
	}
}

// A server whose legacy endpoint wants credentials says so: the 401 of the
// GET is the error a host finds with errors.As (to start authorization),
// not the POST's refusal that sent the client there.
func TestDialFallbackNamesTheLegacyAuthFailure(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, func(s *legacyServer) {
		s.getFn = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://as.example/prm"`)
			http.Error(w, "log in first", http.StatusUnauthorized)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := Dial(ctx, srv.config())
	if err != nil {
		t.Fatal(err)
	}
	c := jsonrpc.NewConn(st, nil)
	defer c.Close()
	err = c.Call(ctx, "initialize", json.RawMessage(`{}`), nil)
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized || he.Method != http.MethodGet {
		t.Fatalf("got %v (%+v), want the legacy GET's 401 first", err, he)
	}
	if !strings.Contains(err.Error(), "405") {
		t.Errorf("%v does not say the POST was refused", err)
	}
}
