package remote

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/toolreg"
)

// tinyHTTPServer is a handshake-era Streamable HTTP server with one tool.
func tinyHTTPServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, err := jsonrpc.Decode(body)
		if err != nil || !m.IsRequest() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var result string
		switch m.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"tiny","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"hello","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			result = `{"content":[{"type":"text","text":"hi"}]}`
		default:
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(jsonrpc.AppendResult(nil, m.ID, json.RawMessage(result)))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The status tells the truth about an HTTP server that went away: not
// "connected" forever, but reconnecting, with the reason.
func TestRegistryNoticesAGoneHTTPServer(t *testing.T) {
	leakcheck.Check(t)
	srv := tinyHTTPServer(t)
	r := newRegistry(t, nil, &toolreg.ServerConfig{Name: "web", Type: "http", URL: srv.URL})
	if res, err := r.Call(ctx10(t), "mcp__web__hello", nil); err != nil || res.Text() != "hi" {
		t.Fatalf("%+v %v", res, err)
	}
	if st := r.Servers()[0]; st.State != toolreg.StateConnected || st.Transport != "http" {
		t.Fatalf("status: %+v", st)
	}
	srv.Close()
	for range 4 { // the first may fail on the connection the server closed
		r.Call(ctx10(t), "mcp__web__hello", nil)
	}
	waitFor(t, "the registry to notice the server is gone", func() bool {
		st := r.Servers()[0]
		return st.State == toolreg.StateReconnecting && st.Err != nil && strings.Contains(st.Err.Error(), "unreachable")
	})
}

// A ServerConfig made in code with a URL and no Type is an http server,
// as the JSON rule has it.
func TestURLWithoutTypeDialsHTTP(t *testing.T) {
	leakcheck.Check(t)
	srv := tinyHTTPServer(t)
	r := newRegistry(t, nil, &toolreg.ServerConfig{Name: "web", URL: srv.URL})
	if res, err := r.Call(ctx10(t), "mcp__web__hello", nil); err != nil || res.Text() != "hi" {
		t.Fatalf("%+v %v", res, err)
	}
	if st := r.Servers()[0]; st.Transport != "http" {
		t.Errorf("transport %q", st.Transport)
	}
}
