package streamhttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestSSERoundTripInOrder(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, func(s *legacyServer) {
		// Dropped: before the endpoint. Skipped: not a message.
		s.prelude = ": hello\n\nevent: message\ndata: {\"early\":true}\n\n"
	})
	sse := srv.dial(t, srv.config())
	ctx := context.Background()
	const n = 50
	for i := 0; i < n; i++ {
		if err := sse.Write(ctx, []byte(fmt.Sprintf(`{"n":%d}`, i))); err != nil {
			t.Fatalf("Write %d: %v", i, err)
		}
		if i == n/2 {
			srv.out <- "event: ping\ndata: x\n\n: comment\n\nevent: message\ndata:\n\n"
		}
	}
	for i := 0; i < n; i++ {
		frame, err := readWithin(t, sse, 5*time.Second)
		if want := fmt.Sprintf(`{"n":%d}`, i); err != nil || string(frame) != want {
			t.Fatalf("Read: got %s, %v; want %s", frame, err, want)
		}
	}
}

func TestSSEHeadersAndBearer(t *testing.T) {
	srv := newLegacyServer(t, nil)
	sse := srv.dial(t, srv.config())
	if err := sse.Write(context.Background(), []byte(`{"jsonrpc":"2.0","method":"x"}`)); err != nil {
		t.Fatal(err)
	}
	get, post := srv.headers()
	for _, c := range []struct {
		h          http.Header
		name, want string
	}{
		{get, "Authorization", "Bearer " + legacyToken},
		{get, "X-Custom", "yes"},
		{get, "Accept", "text/event-stream"},
		{get, "Cache-Control", "no-cache"},
		{post, "Authorization", "Bearer " + legacyToken},
		{post, "X-Custom", "yes"},
		{post, "Content-Type", "application/json"},
	} {
		if got := c.h.Get(c.name); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// A Timeout on the caller's client bounds POSTs, not the event stream.
func TestSSEClientTimeoutSparesTheStream(t *testing.T) {
	srv := newLegacyServer(t, nil)
	cfg := srv.config()
	client := *cfg.Client
	client.Timeout = 100 * time.Millisecond
	cfg.Client = &client
	sse := srv.dial(t, cfg)
	time.Sleep(200 * time.Millisecond) // past the client's Timeout (the subject)
	if err := sse.Write(context.Background(), []byte(`{"after":"a while"}`)); err != nil {
		t.Fatal(err)
	}
	if frame, err := readWithin(t, sse, 5*time.Second); err != nil || string(frame) != `{"after":"a while"}` {
		t.Errorf("got %s, %v", frame, err)
	}
}

// Credentials go to the server's origin only: not to another origin an
// endpoint event names (which is refused), nor to a redirect target.
func TestSSECredentialsStayWithTheOrigin(t *testing.T) {
	var mu sync.Mutex
	var seen []http.Header
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: endpoint\ndata: /messages?sessionId=abc\n\n")
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer other.Close()

	for _, endpoint := range []string{other.URL + "/messages", "//" + other.Listener.Addr().String() + "/m", "https://127.0.0.1:1/m"} {
		srv := newLegacyServer(t, func(s *legacyServer) { s.endpoint = endpoint })
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := dialLegacy(ctx, srv.config())
		cancel()
		if err == nil || !strings.Contains(err.Error(), "another origin") {
			t.Errorf("endpoint %s: got %v, want a refusal", endpoint, err)
		}
	}

	// A redirect of the GET or of the POST to the other server is not
	// followed.
	srv := newLegacyServer(t, func(s *legacyServer) {
		s.getFn = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/sse", http.StatusTemporaryRedirect)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := dialLegacy(ctx, srv.config()); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Errorf("redirected GET: got %v, want a refusal", err)
	}
	srv = newLegacyServer(t, func(s *legacyServer) {
		s.postFn = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/messages", http.StatusTemporaryRedirect)
		}
	})
	sse := srv.dial(t, srv.config())
	if err := sse.Write(context.Background(), []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Errorf("redirected POST: got %v, want a refusal", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 0 {
		t.Errorf("the other server saw %d requests, want none", len(seen))
	}
}

func TestSSECloseConcurrent(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, nil)
	sse := srv.dial(t, srv.config())
	readErr := make(chan error, 1)
	go func() {
		_, err := sse.Read()
		readErr <- err
	}()
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := sse.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-readErr:
		if !errors.Is(err, jsonrpc.ErrClosed) {
			t.Errorf("Read after Close: got %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not unblock Read")
	}
	if err := sse.Write(context.Background(), []byte(`{}`)); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Write after Close: got %v, want ErrClosed", err)
	}
}

func TestSSEWithConn(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, nil)
	notes := make(chan string, 10)
	conn := jsonrpc.NewConn(srv.dial(t, srv.config()), &jsonrpc.Options{
		OnNotification: func(ctx context.Context, req *jsonrpc.Request) { notes <- req.Method },
	})
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	var res struct{ Method string }
	if err := conn.Call(ctx, "with-notification", nil, &res); err != nil || res.Method != "with-notification" {
		t.Fatalf("Call: got %+v, %v", res, err)
	}
	select {
	case m := <-notes:
		if m != "notifications/message" {
			t.Errorf("got notification %q", m)
		}
	case <-ctx.Done():
		t.Fatal("no notification")
	}

	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(method string) {
			defer wg.Done()
			var res struct{ Method string }
			if err := conn.Call(ctx, method, nil, &res); err != nil || res.Method != method {
				t.Errorf("Call %s: got %+v, %v", method, res, err)
			}
		}(fmt.Sprintf("m%d", i))
	}
	wg.Wait()

	// The stream ends under a call that waits: it fails at once.
	time.AfterFunc(50*time.Millisecond, func() { close(srv.end) })
	if err := conn.Call(ctx, "hang", nil, nil); !errors.Is(err, jsonrpc.ErrDisconnected) {
		t.Errorf("Call when the stream ends: got %v, want ErrDisconnected", err)
	}
}
