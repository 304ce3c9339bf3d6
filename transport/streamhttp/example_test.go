package streamhttp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// A Streamable HTTP endpoint is one URL that takes each JSON-RPC message
// as its own POST: a request is answered with JSON (or an event stream), a
// notification with 202 Accepted. Dial returns an ordinary jsonrpc.Stream
// over it; a session (mcpclient.Connect) would run the handshake here, and
// this example sends the first request by hand to show the wire.
func ExampleDial() {
	server := httptest.NewServer(http.HandlerFunc(answerInitialize))
	defer server.Close()

	ctx := context.Background()
	stream, err := streamhttp.Dial(ctx, streamhttp.Config{URL: server.URL})
	if err != nil {
		log.Fatal(err)
	}
	conn := jsonrpc.NewConn(stream, nil)
	defer conn.Close()

	var result struct {
		ProtocolVersion string
		ServerInfo      struct{ Name string }
	}
	err = conn.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "example", "version": "1"},
	}, &result)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(result.ServerInfo.Name, "speaks", result.ProtocolVersion)
	// Output: tiny-server speaks 2025-11-25
}

// answerInitialize is the smallest MCP server that answers initialize: it
// reads the POSTed message and answers with one JSON message.
func answerInitialize(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed) // no GET stream
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &msg) != nil || msg.ID == nil {
		w.WriteHeader(http.StatusAccepted) // a notification: nothing to answer
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{},"serverInfo":{"name":"tiny-server","version":"1"}}}`, msg.ID)
}
