package mcpclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

func TestParamHeadersOf(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         string // "name=path,…" or "error: …"
	}{
		{"none", `{"type":"object","properties":{"q":{"type":"string"}}}`, ""},
		{"top level", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`, "Region=region"},
		{"nested", `{"type":"object","properties":{"cfg":{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}}}`, "N=cfg.n"},
		{"boolean", `{"properties":{"f":{"type":"boolean","x-mcp-header":"Flag"}}}`, "Flag=f"},
		{"a property named x-mcp-header", `{"properties":{"x-mcp-header":{"type":"string"}}}`, ""},
		{"empty", `{"properties":{"a":{"type":"string","x-mcp-header":""}}}`, "error: not an HTTP header name"},
		{"space", `{"properties":{"a":{"type":"string","x-mcp-header":"My Header"}}}`, "error: not an HTTP header name"},
		{"colon", `{"properties":{"a":{"type":"string","x-mcp-header":"A:B"}}}`, "error: not an HTTP header name"},
		{"non-ASCII", `{"properties":{"a":{"type":"string","x-mcp-header":"Région"}}}`, "error: not an HTTP header name"},
		{"control", `{"properties":{"a":{"type":"string","x-mcp-header":"A\u0007"}}}`, "error: not an HTTP header name"},
		{"not a string", `{"properties":{"a":{"type":"string","x-mcp-header":7}}}`, "error: not a string"},
		{"object type", `{"properties":{"a":{"type":"object","x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"array type", `{"properties":{"a":{"type":"array","x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"null type", `{"properties":{"a":{"type":"null","x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"number type", `{"properties":{"a":{"type":"number","x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"no type", `{"properties":{"a":{"x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"duplicate", `{"properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"A"}}}`, "error: used twice"},
		{"duplicate case", `{"properties":{"a":{"type":"string","x-mcp-header":"Tenant"},"b":{"type":"string","x-mcp-header":"TENANT"}}}`, "error: used twice"},
		{"under items", `{"properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}}`, "error: reached through properties alone"},
		{"under oneOf", `{"properties":{"a":{"oneOf":[{"type":"string","x-mcp-header":"A"}]}}}`, "error: reached through properties alone"},
		{"under $defs", `{"$defs":{"d":{"type":"string","x-mcp-header":"A"}},"properties":{"a":{"$ref":"#/$defs/d"}}}`, "error: reached through properties alone"},
		{"at the root", `{"type":"string","x-mcp-header":"A"}`, "error: reached through properties alone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs, err := paramHeadersOf(json.RawMessage(tc.schema))
			var got string
			if err != nil {
				got = "error: " + err.Error()
				if !strings.HasPrefix(tc.want, "error: ") || !strings.Contains(got, strings.TrimPrefix(tc.want, "error: ")) {
					t.Errorf("got %q, want %q", got, tc.want)
				}
				return
			}
			var parts []string
			for _, h := range hs {
				parts = append(parts, h.name+"="+strings.Join(h.path, "."))
			}
			if got = strings.Join(parts, ","); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParamHeaderValues(t *testing.T) {
	specs := []paramHeader{
		{"Region", []string{"region"}}, {"Greeting", []string{"greeting"}}, {"Count", []string{"n"}},
		{"Big", []string{"big"}}, {"Flag", []string{"flag"}}, {"Nothing", []string{"none"}},
		{"Absent", []string{"absent"}}, {"Deep", []string{"cfg", "tenant"}},
	}
	// The tools/call params as the request encoded them: the arguments are
	// read from those bytes, never encoded again. Values go to the
	// transport as plain text; it encodes what a header cannot carry.
	params := json.RawMessage(`{"name":"t","arguments":{"region":"us-west1","greeting":"Hello, 世界","n":42,"big":9007199254740991,"flag":false,"none":null,"cfg":{"tenant":" padded "}}}`)
	h, err := paramHeaderValues(specs, params)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Mcp-Param-Region":   "us-west1",
		"Mcp-Param-Greeting": "Hello, 世界",
		"Mcp-Param-Count":    "42",
		"Mcp-Param-Big":      "9007199254740991",
		"Mcp-Param-Flag":     "false",
		"Mcp-Param-Deep":     " padded ",
	}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
}

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
		m, _ := jsonrpc.Decode(body)
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
		w.Write(jsonrpc.AppendResult(nil, m.ID, json.RawMessage(result)))
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
	tools, err := Collect(s.Tools(ctx5s(t)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
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
