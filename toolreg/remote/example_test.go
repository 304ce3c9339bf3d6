package remote_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/toolreg/remote"
)

// A host whose servers include a remote one opens its registry with
// remote.New: the http server's tools are named and called as any other.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(weather))
	defer srv.Close()
	cfg, err := mcpjson.ParseConfig([]byte(`{"mcpServers": {
		"weather": {"type": "http", "url": "`+srv.URL+`/mcp"}
	}}`), ".mcp.json", nil)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	reg, err := remote.New(ctx, cfg, &toolreg.Options{Strict: true})
	if err != nil {
		log.Fatal(err)
	}
	defer reg.Close()
	tools, err := reg.Tools(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println(t.Name)
	}
	res, err := reg.Call(ctx, "mcp__weather__forecast", map[string]string{"city": "Oslo"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text(), "/", reg.Servers()[0].Transport)
	// Output:
	// mcp__weather__forecast
	// sunny / http
}

// weather is a Streamable HTTP server of the handshake era with one tool,
// answering each request with JSON.
func weather(w http.ResponseWriter, r *http.Request) {
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
	results := map[string]string{
		"initialize": `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"weather","version":"1"}}`,
		"tools/list": `{"tools":[{"name":"forecast","inputSchema":{"type":"object"}}]}`,
		"tools/call": `{"content":[{"type":"text","text":"sunny"}]}`,
	}
	result, ok := results[m.Method]
	if !ok {
		http.Error(w, "no", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(rpcwire.AppendResult(nil, m.ID, json.RawMessage(result)))
}
