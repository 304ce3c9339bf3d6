package mcpclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// TestParamHeadersOverHTTP runs a stateless session over the real HTTP
// transport: invalid tools are left out and calls carry their headers.
func TestParamHeadersOverHTTP(t *testing.T) {
	checkGoroutines(t)
	var mu sync.Mutex
	seen := map[string]http.Header{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, _ := rpcwire.Decode(body)
		var result string
		switch m.Method {
		case "server/discover":
			result = discoverOK
		case "tools/list":
			result = `{"tools":[
				{"name":"good","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
				{"name":"bad","inputSchema":{"type":"object","properties":{"obj":{"type":"object","x-mcp-header":"Obj"}}}},
				{"name":"plain","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			var p struct{ Name string }
			json.Unmarshal(m.Params, &p)
			mu.Lock()
			seen[p.Name] = r.Header.Clone()
			mu.Unlock()
			result = `{"content":[]}`
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(rpcwire.AppendResult(nil, m.ID, json.RawMessage(result)))
	}))
	defer srv.Close()
	stream, err := streamhttp.Dial(ctx5s(t), streamhttp.Config{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Connect(ctx5s(t), stream, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	names := listedNames(t, s)
	if diff := cmp.Diff([]string{"good", "plain"}, names); diff != "" {
		t.Errorf("listed tools (-want +got):\n%s", diff)
	}
	for _, name := range names {
		if _, err := s.CallTool(context.Background(), name, map[string]any{"region": "eu-north-1"}); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if seen["good"].Get("Mcp-Param-Region") != "eu-north-1" || seen["good"].Get("Mcp-Name") != "good" || seen["good"].Get("Mcp-Method") != "tools/call" {
		t.Errorf("good: %v", seen["good"])
	}
	if seen["plain"].Get("Mcp-Param-Region") != "" {
		t.Errorf("plain carried a parameter header: %v", seen["plain"])
	}
}

// TestParamHeaderRulesOnlyWhereHeadersAre: over a stream that carries no
// headers (the pipe here, as stdio), x-mcp-header annotations mean
// nothing, so a tool whose annotations would be invalid over HTTP is
// listed and called like any other.
func TestParamHeaderRulesOnlyWhereHeadersAre(t *testing.T) {
	f := modernServer(t)
	f.Result("tools/list", `{"resultType":"complete","tools":[
		{"name":"bad","inputSchema":{"type":"object","properties":{"obj":{"type":"object","x-mcp-header":"Obj"}}}},
		{"name":"plain","inputSchema":{"type":"object"}}]}`)
	f.Result("tools/call", `{"resultType":"complete","content":[]}`)
	s := connect(t, f, nil)
	if s.Era() != EraStateless {
		t.Fatalf("era %v", s.Era())
	}
	names := listedNames(t, s)
	if diff := cmp.Diff([]string{"bad", "plain"}, names); diff != "" {
		t.Errorf("listed tools over a pipe (-want +got):\n%s", diff)
	}
	if _, err := s.CallTool(ctx5s(t), "bad", map[string]any{"obj": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
}

// listedNames lists every page of s's tools and returns their names.
func listedNames(t *testing.T, s *Session) []string {
	t.Helper()
	tools, err := Collect(s.Tools(ctx5s(t)))
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(tools))
	for i, tool := range tools {
		names[i] = tool.Name
	}
	return names
}
