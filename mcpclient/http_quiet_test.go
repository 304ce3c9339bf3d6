package mcpclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// A handshake-era session opens the GET stream only where something may
// come on it: the server declared what it would send unasked, or the
// client what a server may ask of it.
func TestHTTPGETStreamOnlyWhereSomethingMayCome(t *testing.T) {
	for _, tc := range []struct {
		name, caps string
		opts       Options
		gets       int32
	}{
		{"nothing either side", `{"tools":{},"prompts":{},"resources":{}}`, Options{}, 0},
		{"tools listChanged", `{"tools":{"listChanged":true}}`, Options{}, 1},
		{"resources subscribe", `{"resources":{"subscribe":true}}`, Options{}, 1},
		{"logging", `{"logging":{}}`, Options{}, 1},
		{"the client samples", `{"tools":{}}`, Options{Sampling: func(context.Context, *CreateMessageParams) (*CreateMessageResult, error) { return nil, nil }}, 1},
		{"the client has roots", `{"tools":{}}`, Options{Roots: func(context.Context) ([]Root, error) { return nil, nil }}, 1},
		{"a catch-all callback", `{"tools":{}}`, Options{OnNotification: func(string, json.RawMessage) {}}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkGoroutines(t)
			var gets atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost {
					if r.Method == http.MethodGet {
						gets.Add(1)
					}
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
					w.Header().Set("Mcp-Session-Id", "s1")
					answerJSON(w, m, `{"protocolVersion":"2025-11-25","capabilities":`+tc.caps+`,"serverInfo":{"name":"h","version":"1"}}`)
				case m.Method == "tools/list":
					answerJSON(w, m, `{"tools":[]}`)
				default:
					http.Error(w, "unknown method", http.StatusNotFound)
				}
			}))
			t.Cleanup(srv.Close)
			stream, err := streamhttp.Dial(ctx5s(t), streamhttp.Config{URL: srv.URL, Client: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			opts := tc.opts
			s, err := Connect(ctx5s(t), stream, &opts)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.listTools(ctx5s(t), ""); err != nil {
				t.Fatal(err)
			}
			if n := gets.Load(); n != tc.gets {
				t.Errorf("%d GET requests, want %d", n, tc.gets)
			}
		})
	}
}
