package mcpclient_test

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// A session is silent unless given a logger. A *slog.Logger goes in as it
// is: the Logger options take the four methods it has (Debug, Info, Warn,
// Error), so a program that never logs does not link log/slog. Here the
// probe for a server of the 2026 era is refused by the demo server, a
// 2025 one, and the session says at Debug level that it falls back to
// the handshake.
func ExampleOptions_logger() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // no time: the output is checked
			}
			return a
		},
	}))
	s, done := startDemo(&mcpclient.Options{Logger: logger})
	defer done()
	fmt.Println("connected, speaking", s.ProtocolVersion())
	// Output:
	// level=DEBUG msg="mcpclient: not a modern server; falling back to initialize" reason="not a modern MCP server: server/discover: calling server/discover: jsonrpc error -32601: method not found: server/discover"
	// connected, speaking 2025-11-25
}
