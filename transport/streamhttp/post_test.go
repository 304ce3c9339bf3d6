package streamhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// A final answer ends its call at once, with an error that names what was
// wrong, however the server got it wrong — and no call waits for a timeout.
func TestFinalAnswersEndTheCallAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, m *rpcwire.Message)
		want   string
	}{
		{"empty 200 body", func(w http.ResponseWriter, m *rpcwire.Message) {
			w.Header().Set("Content-Type", "application/json")
		}, "empty body"},
		{"202 to a request", func(w http.ResponseWriter, m *rpcwire.Message) {
			w.WriteHeader(http.StatusAccepted)
		}, "202"},
		{"a body that is no JSON-RPC", func(w http.ResponseWriter, m *rpcwire.Message) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"hello":"world"}`))
		}, "no JSON-RPC message"},
		{"a request instead of a response", func(w http.ResponseWriter, m *rpcwire.Message) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":77,"method":"ping"}`))
		}, "not a response"},
		{"the response to another request", func(w http.ResponseWriter, m *rpcwire.Message) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":9999,"result":{"stolen":true}}`))
		}, "another request (id 9999)"},
		{"a response that cannot be decoded", func(w http.ResponseWriter, m *rpcwire.Message) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"1.0","id":%s,"result":{}}`, m.ID)
		}, `"2.0"`},
		{"plain text", func(w http.ResponseWriter, m *rpcwire.Message) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("ok"))
		}, "text/plain"},
		{"an event stream that cannot be decoded", func(w http.ResponseWriter, m *rpcwire.Message) {
			sseHeader(w)
			sseEvent(w, "", fmt.Sprintf(`{"jsonrpc":"2.0","id":%s}`, m.ID))
		}, "neither a method nor a result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			f := newMCPHTTP(t)
			f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) { tc.answer(w, m) }
			_, c := dialHTTP(t, f, Config{}, nil)
			start := time.Now()
			err := c.Call(context.Background(), "tools/call", nil, nil) // no deadline: only the answer can end it
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
			if !errors.Is(err, rpcwire.ErrBadResponse) && tc.name != "plain text" {
				t.Errorf("err = %v, want a bad response", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("the call took %v", d)
			}
			// The stream lives on for the next call.
			f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) { jsonAnswer(w, m, `{}`) }
			if err := c.Call(ctx5(t), "ping", nil, nil); err != nil {
				t.Errorf("the next call: %v", err)
			}
		})
	}
}

// A server that sends its headers only with the answer still gets told
// that a call was abandoned: the POST's body had reached it.
func TestAbandonedBeforeTheHeadersIsReported(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	}
	var mu sync.Mutex
	var abandoned []jsonrpc.ID
	_, c := dialHTTP(t, f, Config{}, &jsonrpc.Options{OnAbandon: func(id jsonrpc.ID, method string) {
		mu.Lock()
		abandoned = append(abandoned, id)
		mu.Unlock()
	}})
	const n = 200
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			if err := c.Call(ctx, "tools/call", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v", err)
			}
		}()
	}
	wg.Wait()
	// Every call whose POST reached the server must be reported; a call
	// whose context ended before it was sent (a slow start under load)
	// need not be.
	f.mu.Lock()
	reached := map[string]bool{}
	for _, m := range f.bodies {
		reached[m.ID.String()] = true
	}
	f.mu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	told := map[string]bool{}
	for _, id := range abandoned {
		told[id.String()] = true
	}
	for id := range reached {
		if !told[id] {
			t.Errorf("call %s reached the server but was not reported abandoned", id)
		}
	}
	if len(reached) == 0 { // the test needs some calls to get through
		t.Errorf("only %d of %d calls reached the server", len(reached), n)
	}
}

// Some servers answer a request with an unknown session id with 400 and a
// body that says so (the reference server after a restart): that is an
// expired session too.
func TestStaleSessionOn400(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "s1")
			jsonAnswer(w, m, `{"protocolVersion":"2025-11-25"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}`))
	}
	h, c := dialHTTP(t, f, Config{}, nil)
	if err := c.Call(ctx5(t), "initialize", nil, nil); err != nil {
		t.Fatal(err)
	}
	err := c.Call(ctx5(t), "tools/list", nil, nil)
	if !errors.Is(err, transport.ErrSessionExpired) || h.SessionID() != "" {
		t.Errorf("err = %v, session %q; want an expired session, forgotten", err, h.SessionID())
	}
	// Without a session, a 400 is an answer like any other.
	err = c.Call(ctx5(t), "tools/list", nil, nil)
	var rpcErr *jsonrpc.Error
	if errors.Is(err, transport.ErrSessionExpired) || !errors.As(err, &rpcErr) {
		t.Errorf("without a session: %v, want the server's error", err)
	}
}

// busyCase is a case of TestBusyServerIsRetriedOnce.
type busyCase struct {
	name       string
	retryAfter string
	busyTimes  int
	wantPosts  int
	wantErr    string
}

// A server too busy to process a request (429, 503) with a short
// Retry-After gets the request once more; a long one is reported with the
// advice quoted. The wait passes on a synctest bubble's clock, over an
// in-memory client.
func TestBusyServerIsRetriedOnce(t *testing.T) {
	for _, tc := range []busyCase{
		{"short advice, then served", "1", 1, 2, ""},
		{"busy twice", "1", 2, 2, "429 Too Many Requests (the server asks to retry after 1s)"},
		{"advice too long", "120", 1, 1, "retry after 2m0s"},
		{"no advice", "", 1, 1, "429"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			inBubble(t, func(t *testing.T) { busyServer(t, tc) })
		})
	}
}

func busyServer(t *testing.T, tc busyCase) {
	f := newMemMCPHTTP(t)
	var busy atomic.Int32
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		if int(busy.Add(1)) <= tc.busyTimes {
			if tc.retryAfter != "" {
				w.Header().Set("Retry-After", tc.retryAfter)
			}
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		jsonAnswer(w, m, `{}`)
	}
	_, c := dialMemHTTP(t, f, Config{}, nil)
	start := time.Now()
	err := c.Call(ctx5(t), "tools/call", nil, nil)
	switch {
	case tc.wantErr == "" && err != nil:
		t.Errorf("err = %v", err)
	case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
		t.Errorf("err = %v, want %q", err, tc.wantErr)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.posts) != tc.wantPosts {
		t.Errorf("%d POSTs, want %d", len(f.posts), tc.wantPosts)
	}
	if waited := time.Since(start); tc.wantPosts == 2 && waited < time.Second {
		t.Errorf("retried after %v, before the server's Retry-After of 1s", waited)
	}
}

// A session id must be visible ASCII and of reasonable length.
func TestInvalidSessionIDRefused(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		w.Header().Set("Mcp-Session-Id", strings.Repeat("x", 5000))
		jsonAnswer(w, m, `{}`)
	}
	h, c := dialHTTP(t, f, Config{}, nil)
	err := c.Call(ctx5(t), "initialize", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "invalid Mcp-Session-Id") || h.SessionID() != "" {
		t.Errorf("err = %v, session %d bytes", err, len(h.SessionID()))
	}
}

// A server that is not there any more ends the stream, so a session over
// it ends (and a registry reconnects) instead of failing each call alike
// forever.
func TestUnreachableServerEndsTheStream(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) { jsonAnswer(w, m, `{}`) }
	_, c := dialHTTP(t, f, Config{}, nil)
	if err := c.Call(ctx5(t), "ping", nil, nil); err != nil {
		t.Fatal(err)
	}
	f.srv.Close()
	// The first call may fail on the kept-alive connection the server
	// closed; the next ones find no server to connect to, and a few such
	// in a row end the stream.
	for range 4 {
		if err := c.Call(ctx5(t), "ping", nil, nil); err == nil {
			t.Fatal("a call to a closed server succeeded")
		}
	}
	select {
	case <-c.Done():
		if !errors.Is(c.Err(), jsonrpc.ErrDisconnected) || !strings.Contains(c.Err().Error(), "unreachable") {
			t.Errorf("the conn ended with %v", c.Err())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the conn lives on with its server gone")
	}
}

// An SSE answer is read to its end, so that its connection serves the next
// call: many calls in a row take one connection, not one each.
func TestSSEAnswersReuseTheConnection(t *testing.T) {
	checkLeaks(t)
	f, conns := newMCPHTTPCountingConns(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		sseHeader(w)
		sseEvent(w, "", string(rpcwire.AppendResult(nil, m.ID, []byte(`{}`))))
	}
	_, c := dialHTTP(t, f, Config{}, nil)
	for range 50 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := c.Call(ctx, "tools/call", nil, nil)
		cancel() // at once, as callers do: the answer's end must still be read
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n > 3 {
		t.Errorf("50 sequential calls opened %d connections", n)
	}
}

// The GET stream is reopened after the server's retry:, but never sooner
// than minRetry, and later and later while it keeps failing.
func TestListenBackoff(t *testing.T) {
	for _, tc := range []struct {
		retry    time.Duration
		failures int
		want     time.Duration
	}{
		{0, 1, defaultRetry},
		{time.Millisecond, 1, minRetry},
		{500 * time.Millisecond, 1, 500 * time.Millisecond},
		{500 * time.Millisecond, 3, 2 * time.Second},
		{0, 20, maxListenRetry},
		{time.Hour, 1, maxListenRetry},
	} {
		if got := listenBackoff(tc.retry, tc.failures); got != tc.want {
			t.Errorf("listenBackoff(%v, %d) = %v, want %v", tc.retry, tc.failures, got, tc.want)
		}
	}
}

// On the stateless wire a cancelled call closes its request's stream at
// once: that is the cancellation the server sees.
func TestStatelessCancelClosesTheStreamPromptly(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	closed := make(chan time.Duration, 1)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		sseHeader(w)
		start := time.Now()
		select {
		case <-r.Context().Done():
			closed <- time.Since(start)
		case <-time.After(5 * time.Second):
			closed <- -1
		}
	}
	h, c := dialHTTP(t, f, Config{}, nil)
	h.SetProtocol(transport.Protocol{Version: "2026-07-28", Stateless: true})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.Call(ctx, "tools/call", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := <-closed; d < 0 || d > time.Second {
		t.Errorf("the server saw the stream close after %v", d)
	}
}
