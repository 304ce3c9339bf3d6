package streamhttp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/secret"
)

// legacyToken is the bearer token the legacy tests configure; no error may
// contain it.
const legacyToken = "s3cret-token"

// legacyServer is a minimal MCP 2024-11-05 HTTP+SSE server: GET /sse opens
// the event stream and names /messages?sessionId=abc as the endpoint; each
// request POSTed there is answered on the stream with a result echoing its
// method, and anything else is echoed back as it came.
type legacyServer struct {
	*httptest.Server

	// Set by the configure function, before the server starts.
	endpoint string // the endpoint event's data; "" sends none
	prelude  string // raw event text sent before the endpoint event
	getFn    func(w http.ResponseWriter, r *http.Request)
	postFn   func(w http.ResponseWriter, r *http.Request)

	out  chan string   // raw event text for the stream
	end  chan struct{} // closing it ends the stream
	quit chan struct{} // closed when the test ends

	mu      sync.Mutex
	getHdr  http.Header // the last GET's headers
	postHdr http.Header // the last POST's headers
	posts   int
}

func newLegacyServer(t *testing.T, configure func(*legacyServer)) *legacyServer {
	t.Helper()
	s := &legacyServer{
		endpoint: "/messages?sessionId=abc",
		out:      make(chan string, 1000),
		end:      make(chan struct{}),
		quit:     make(chan struct{}),
	}
	if configure != nil {
		configure(s)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sse", s.get)
	mux.HandleFunc("POST /messages", s.post)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(s.quit)
		s.Close()
	})
	return s
}

// config is an Config for the server's SSE endpoint, with a token and
// a header, and the server's own client so that its idle connections close
// with it.
func (s *legacyServer) config() Config {
	return Config{
		URL:         s.URL + "/sse",
		Headers:     map[string]secret.String{"X-Custom": secret.New("yes")},
		BearerToken: secret.New(legacyToken),
		Client:      s.Client(),
	}
}

// dial connects to the server and closes the stream when the test ends.
func (s *legacyServer) dial(t *testing.T, cfg Config) *legacy {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	sse, err := dialLegacy(ctx, cfg)
	if err != nil {
		t.Fatalf("dialLegacy: %v", err)
	}
	t.Cleanup(func() { sse.Close() })
	return sse
}

func (s *legacyServer) get(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.getHdr = r.Header.Clone()
	s.mu.Unlock()
	if s.getFn != nil {
		s.getFn(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, s.prelude)
	if s.endpoint != "" {
		fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", s.endpoint)
	}
	w.(http.Flusher).Flush()
	for {
		select {
		case ev := <-s.out:
			io.WriteString(w, ev)
			w.(http.Flusher).Flush()
		case <-s.end:
			// Write what was queued first: select picks at random among
			// ready cases.
			for {
				select {
				case ev := <-s.out:
					io.WriteString(w, ev)
				default:
					w.(http.Flusher).Flush()
					return
				}
			}
		case <-s.quit:
			return
		case <-r.Context().Done():
			return
		}
	}
}

func (s *legacyServer) post(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.postHdr = r.Header.Clone()
	s.posts++
	s.mu.Unlock()
	if s.postFn != nil {
		s.postFn(w, r)
		return
	}
	if r.URL.Query().Get("sessionId") != "abc" {
		http.Error(w, "unknown session", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(body, &m)
	switch {
	case m.ID == nil || m.Method == "":
		s.send(string(body))
	case m.Method == "hang":
		// Never answered.
	default:
		if m.Method == "with-notification" {
			s.send(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"hi"}}`)
		}
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"method":%q}}`, m.ID, m.Method))
	}
	w.WriteHeader(http.StatusAccepted)
	io.WriteString(w, "Accepted")
}

// send queues a message event.
func (s *legacyServer) send(data string) {
	s.out <- "event: message\ndata: " + data + "\n\n"
}

// headers returns copies of the last GET's and POST's headers.
func (s *legacyServer) headers() (get, post http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.getHdr.Clone(), s.postHdr.Clone()
}
