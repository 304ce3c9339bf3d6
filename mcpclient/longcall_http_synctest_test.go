//go:build go1.25

package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// pipeRoundTripper serves each request with handler in memory, streaming:
// the response goes back once the handler writes its header, and its body
// is read as the handler writes it. It has no listener, so a synctest
// bubble's clock moves whenever everything waits.
type pipeRoundTripper struct{ handler http.Handler }

func (p pipeRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, body: pw, sent: make(chan *http.Response, 1), req: r, pr: pr}
	go func() {
		p.handler.ServeHTTP(w, r)
		w.WriteHeader(http.StatusOK) // if the handler wrote nothing
		pw.Close()
	}()
	select {
	case resp := <-w.sent:
		return resp, nil
	case <-r.Context().Done():
		pr.CloseWithError(r.Context().Err())
		return nil, r.Context().Err()
	}
}

// pipeWriter is the handler's side of a pipeRoundTripper exchange.
type pipeWriter struct {
	header http.Header
	body   *io.PipeWriter
	pr     *io.PipeReader
	req    *http.Request
	once   sync.Once
	sent   chan *http.Response
}

func (w *pipeWriter) Header() http.Header { return w.header }
func (w *pipeWriter) Flush()              { w.WriteHeader(http.StatusOK) }

func (w *pipeWriter) WriteHeader(code int) {
	w.once.Do(func() {
		w.sent <- &http.Response{StatusCode: code, Header: w.header.Clone(), Body: w.pr, Request: w.req, ContentLength: -1}
	})
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// longHTTPServer is a Streamable HTTP server, either era, whose tools/call
// answers on an event stream after d, with progress every 5s before.
func longHTTPServer(t *testing.T, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, err := rpcwire.Decode(body)
		switch {
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
		case !m.IsRequest():
			w.WriteHeader(http.StatusAccepted)
		case m.Method == "initialize":
			answerInitialize(w, m, "s1")
		case m.Method == "server/discover":
			answerJSON(w, m, discoverOK)
		case m.Method == "tools/call":
			streamLongCall(t, w, r, m, d)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Write(rpcwire.AppendError(nil, m.ID, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "%s", m.Method)))
		}
	})
}

func streamLongCall(t *testing.T, w http.ResponseWriter, r *http.Request, m *rpcwire.Message, d time.Duration) {
	var p struct {
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	json.Unmarshal(m.Params, &p)
	if len(p.Meta.ProgressToken) == 0 {
		t.Errorf("tools/call carried no progress token: %s", m.Params)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for i := 1; i*5 <= int(d/time.Second); i++ {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
			return
		}
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":%s,\"progress\":%d}}\n\n", p.Meta.ProgressToken, i)
		w.(http.Flusher).Flush()
	}
	fmt.Fprintf(w, "event: message\ndata: %s\n\n", rpcwire.AppendResult(nil, m.ID, json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`)))
}

// TestLongHTTPCallWithProgressSurvives: over Streamable HTTP, in both
// eras, a 70s tool that reports progress every 5s on its event stream
// returns its result to a plain CallTool, under a 60s RequestTimeout that
// only progress pushes back, and with default options; a Timeout on the
// host's http.Client (meant for single exchanges) does not cut it either.
func TestLongHTTPCallWithProgressSurvives(t *testing.T) {
	for _, era := range []Era{EraHandshake, EraStateless} {
		for _, timeout := range []time.Duration{0, time.Minute} {
			t.Run(fmt.Sprintf("%s/RequestTimeout=%v", era, timeout), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					client := &http.Client{Transport: pipeRoundTripper{longHTTPServer(t, 70*time.Second)}, Timeout: 30 * time.Second}
					ctx := context.Background()
					stream, err := streamhttp.Dial(ctx, streamhttp.Config{URL: "http://127.0.0.1:9/mcp", Client: client})
					if err != nil {
						t.Fatal(err)
					}
					s, err := Connect(ctx, stream, &Options{Era: era, RequestTimeout: timeout})
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					start := time.Now()
					res, err := s.CallTool(ctx, "long", nil)
					if err != nil || res.Text() != "done" {
						t.Fatalf("after %v: CallTool = %v, %v; want its result", time.Since(start), res, err)
					}
				})
			})
		}
	}
}
