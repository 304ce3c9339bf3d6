package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// httpServer is a handshake-era Streamable HTTP server for session-level
// tests: answer decides each request's answer; notifications are kept.
type httpServer struct {
	srv    *httptest.Server
	answer func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message)

	mu    sync.Mutex
	notes []*rpcwire.Message
	noted chan struct{}       // closed, and replaced, at each notification
	seen  map[string]int      // requests by method
	ids   map[string][]string // request ids by method
}

func newHTTPServer(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message)) *httpServer {
	checkGoroutines(t) // first, so that its check runs after the server's Close
	h := &httpServer{answer: answer, seen: map[string]int{}, ids: map[string][]string{}}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, err := rpcwire.Decode(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		if m.IsRequest() {
			h.seen[m.Method]++
			h.ids[m.Method] = append(h.ids[m.Method], m.ID.String())
		} else {
			h.notes = append(h.notes, m)
			if h.noted != nil {
				close(h.noted)
				h.noted = nil
			}
		}
		h.mu.Unlock()
		if !m.IsRequest() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if m.Method == "server/discover" {
			http.Error(w, "unknown method", http.StatusNotFound)
			return
		}
		h.answer(w, r, m)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *httpServer) count(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seen[method]
}

func (h *httpServer) requestIDs(method string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.ids[method]...)
}

// nextNote returns a channel closed when the next notification arrives.
func (h *httpServer) nextNote() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.noted == nil {
		h.noted = make(chan struct{})
	}
	return h.noted
}

func (h *httpServer) cancelled() map[string]bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := map[string]bool{}
	for _, n := range h.notes {
		if n.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			json.Unmarshal(n.Params, &p)
			ids[string(p.RequestID)] = true
		}
	}
	return ids
}

func answerJSON(w http.ResponseWriter, m *rpcwire.Message, result string) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(rpcwire.AppendResult(nil, m.ID, json.RawMessage(result)))
}

func answerInitialize(w http.ResponseWriter, m *rpcwire.Message, session string) {
	w.Header().Set("Mcp-Session-Id", session)
	answerJSON(w, m, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"h","version":"1"}}`)
}

func connectHTTP(t *testing.T, h *httpServer, opts *Options) *Session {
	t.Helper()
	stream, err := streamhttp.Dial(ctx5s(t), streamhttp.Config{URL: h.srv.URL, Client: h.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Connect(ctx5s(t), stream, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A server that sends its headers only with its answer still hears of
// every call abandoned after the POST went out — a storm of them too.
func TestHTTPCancellationReachesTheServer(t *testing.T) {
	h := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		if m.Method == "initialize" {
			answerInitialize(w, m, "sess")
			return
		}
		select { // the headers wait for the answer, which never comes in time
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	})
	s := connectHTTP(t, h, nil)
	const n = 300
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			if _, err := s.CallTool(ctx, "slow", nil); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v", err)
			}
		}()
	}
	wg.Wait()
	// Every call whose request reached the server must be cancelled there;
	// one whose context ended before it was sent (a slow start under
	// load) need not be.
	reached := h.requestIDs("tools/call")
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	missing := func() []string {
		told := h.cancelled()
		var out []string
		for _, id := range reached {
			if !told[id] {
				out = append(out, id)
			}
		}
		return out
	}
	// Look again at each notification the server hears, until none is
	// missing or the notifications stop coming.
wait:
	for {
		next := h.nextNote() // before looking, so no notification slips by
		if len(missing()) == 0 {
			break
		}
		select {
		case <-next:
		case <-timeout.C:
			break wait
		}
	}
	if m := missing(); len(m) > 0 {
		t.Errorf("%d of the %d calls that reached the server were never cancelled there: %v", len(m), len(reached), m)
	}
	if len(reached) == 0 { // the test needs some calls to get through
		t.Errorf("only %d of %d calls reached the server", len(reached), n)
	}
}

// A server restarted under a session answers 400 "no valid session": the
// session initializes anew and the call goes through, once.
func TestHTTPStaleSessionRecovers(t *testing.T) {
	var mu sync.Mutex
	current := "one"
	h := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case m.Method == "initialize":
			answerInitialize(w, m, current)
		case r.Header.Get("Mcp-Session-Id") != current:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}`))
		default:
			answerJSON(w, m, `{"content":[{"type":"text","text":"fine"}]}`)
		}
	})
	s := connectHTTP(t, h, nil)
	mu.Lock()
	current = "two" // the server restarted
	mu.Unlock()
	res, err := s.CallTool(ctx5s(t), "t", nil)
	if err != nil || res.Text() != "fine" {
		t.Fatalf("CallTool = %v, %v", res, err)
	}
	if n := h.count("initialize"); n != 2 {
		t.Errorf("%d initializations, want 2", n)
	}
	if n := h.count("tools/call"); n != 2 {
		t.Errorf("tools/call reached the server %d times, want 2 (refused, then replayed)", n)
	}
}

// A session whose HTTP server went away ends (Done), so that whoever holds
// it reconnects instead of believing it connected.
func TestHTTPSessionEndsWhenTheServerIsGone(t *testing.T) {
	h := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		if m.Method == "initialize" {
			answerInitialize(w, m, "sess")
			return
		}
		answerJSON(w, m, `{}`)
	})
	s := connectHTTP(t, h, nil)
	h.srv.Close()
	for range 4 {
		s.Ping(ctx5s(t))
	}
	select {
	case <-s.Done():
		if !errors.Is(s.Err(), jsonrpc.ErrDisconnected) {
			t.Errorf("Err = %v", s.Err())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the session lives on with its server gone")
	}
}
