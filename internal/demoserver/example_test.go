package demoserver_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// A client talks to the server over any frame stream; here, one end of an
// in-memory pipe, with a bare jsonrpc.Conn as the client.
func ExampleServer_Serve() {
	ctx := context.Background()
	clientEnd, serverEnd := transport.Pipe()
	served := make(chan error, 1)
	go func() { served <- demoserver.New(nil).Serve(ctx, serverEnd) }()

	conn := jsonrpc.NewConn(clientEnd, nil)
	var init struct {
		ProtocolVersion string
		ServerInfo      struct{ Name string }
	}
	err := conn.Call(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1"}}`), &init)
	if err != nil {
		panic(err)
	}
	conn.Notify(ctx, "notifications/initialized", nil)
	fmt.Println(init.ServerInfo.Name, init.ProtocolVersion)

	var res struct {
		Content           []struct{ Text string }
		StructuredContent json.RawMessage
	}
	err = conn.Call(ctx, "tools/call", json.RawMessage(`{"name":"add","arguments":{"a":2,"b":40}}`), &res)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].Text, string(res.StructuredContent))

	conn.Close()
	fmt.Println("Serve:", <-served)
	// Output:
	// plainmcp-demo 2025-06-18
	// 42 {"sum":42}
	// Serve: <nil>
}
