package remote

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
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
		m, err := rpcwire.Decode(body)
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
		w.Write(rpcwire.AppendResult(nil, m.ID, json.RawMessage(result)))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The status tells the truth about an HTTP server that went away: not
// "connected" forever, but reconnecting, with the reason.
func TestRegistryNoticesAGoneHTTPServer(t *testing.T) {
	leakcheck.Check(t)
	srv := tinyHTTPServer(t)
	gone := make(chan error, 1)
	d := &Dialer{}
	r, err := toolreg.New(ctx10(t), &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "web", Type: "http", URL: srv.URL}}},
		&toolreg.Options{Dial: d.Dial, OnDisconnect: func(_ string, err error) { gone <- err }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if res, err := r.Call(ctx10(t), "mcp__web__hello", nil); err != nil || res.Text() != "hi" {
		t.Fatalf("%+v %v", res, err)
	}
	if st := r.Servers()[0]; st.State != toolreg.StateConnected || st.Transport != "http" {
		t.Fatalf("status: %+v", st)
	}
	srv.Close()
	// Calls until one finds the server gone (the first may fail only on
	// the connection the server closed); OnDisconnect says the registry
	// noticed.
	var noticed error
	ctx := ctx10(t)
	for noticed == nil {
		r.Call(ctx, "mcp__web__hello", nil)
		select {
		case noticed = <-gone:
		case <-ctx.Done():
			t.Fatal("the registry never noticed the server is gone")
		default:
		}
	}
	st := r.Servers()[0]
	if st.State != toolreg.StateReconnecting || st.Err == nil || !strings.Contains(st.Err.Error(), "unreachable") {
		t.Errorf("status: %+v (OnDisconnect heard %v)", st, noticed)
	}
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
