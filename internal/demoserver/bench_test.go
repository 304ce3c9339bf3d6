package demoserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// benchConn serves a Server to a bare client Conn for a benchmark.
func benchConn(b *testing.B, opts *Options) *jsonrpc.Conn {
	b.Helper()
	a, s := transport.Pipe()
	served := make(chan error, 1)
	go func() { served <- New(opts).Serve(context.Background(), s) }()
	conn := jsonrpc.NewConn(a, nil)
	b.Cleanup(func() { conn.Close(); <-served })
	if err := conn.Call(context.Background(), "initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{}}`), nil); err != nil {
		b.Fatal(err)
	}
	return conn
}

func BenchmarkCallEcho(b *testing.B) {
	conn := benchConn(b, nil)
	params := json.RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := conn.Call(context.Background(), "tools/call", params, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCallBig1MiB(b *testing.B) {
	conn := benchConn(b, nil)
	params := json.RawMessage(`{"name":"big","arguments":{"bytes":1048576}}`)
	b.SetBytes(1 << 20)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var raw json.RawMessage
		if err := conn.Call(context.Background(), "tools/call", params, &raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkListTools5000(b *testing.B) {
	conn := benchConn(b, &Options{ExtraTools: 5000})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		cursor, n := "", 0
		for {
			var page struct {
				Tools      []json.RawMessage
				NextCursor string
			}
			if err := conn.Call(context.Background(), "tools/list", map[string]string{"cursor": cursor}, &page); err != nil {
				b.Fatal(err)
			}
			n += len(page.Tools)
			if cursor = page.NextCursor; cursor == "" {
				break
			}
		}
		if n != 5000+len(demoToolNames) {
			b.Fatalf("listed %d tools", n)
		}
	}
}
