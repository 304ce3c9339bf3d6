// Command stdio is the smallest useful MCP client: it runs a server as a
// child process, lists its tools and calls one.
//
// Usage:
//
//	stdio [-tool NAME] [-args JSON] -- COMMAND [ARGS...]
//
// For example, against the bundled demo server (go build -o bin/ ./cmd/...):
//
//	go run ./examples/stdio -tool add -args '{"a":2,"b":40}' -- bin/mcp-demo-server
//
// What happens on the way:
//
//  1. transport.StartStdio starts COMMAND (never through a shell). The MCP
//     stdio transport is one JSON-RPC message per line on the child's
//     standard input and output; its standard error is a log.
//  2. mcpclient.Connect opens the session. It asks server/discover, which
//     a server of the stateless 2026 era answers; any other server gets the
//     handshake: initialize (our protocol version and capabilities), the
//     server's answer (its version and capabilities), then a
//     notifications/initialized notice.
//  3. s.Tools asks tools/list page by page, following nextCursor until the
//     last page; mcpclient.Collect gathers the pages into one slice.
//  4. s.CallTool sends tools/call. A tool that ran and failed answers a
//     result with IsError set, not a Go error: the failure is for the model
//     to read.
//  5. s.Close closes the child's standard input, the signal for a stdio
//     server to exit, and stops it harder if it does not.
//
// The tool list goes to standard error, the tool's text to standard output.
// The exit status is 0 on success, 1 on any failure (a tool error too) and
// 2 for bad usage.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

func main() {
	// No signal handling: Ctrl-C ends this program at once, and the server
	// with it, as it would any shell pipeline's. Its standard input, the
	// pipe from us, closes with us, which tells a stdio server to exit
	// (and on Linux the transport's parent-death signal makes sure).
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("stdio", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: stdio [-tool NAME] [-args JSON] -- COMMAND [ARGS...]")
		fs.PrintDefaults()
	}
	tool := fs.String("tool", "", "the tool to call (default: the first one listed)")
	argsJSON := fs.String("args", "{}", "the tool's arguments, a JSON object")
	if fs.Parse(args) != nil {
		return 2
	}
	var toolArgs map[string]json.RawMessage // each value kept exactly as written
	if err := json.Unmarshal([]byte(*argsJSON), &toolArgs); err != nil {
		fmt.Fprintln(stderr, "stdio: -args is not a JSON object:", err)
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()

	stream, err := transport.StartStdio(transport.StdioConfig{Command: fs.Arg(0), Args: fs.Args()[1:]})
	if err != nil {
		fmt.Fprintln(stderr, "stdio:", err)
		return 1
	}
	s, err := mcpclient.Connect(ctx, stream, nil)
	if err != nil {
		stream.Close()
		fmt.Fprintln(stderr, "stdio: connect:", err)
		return 1
	}
	defer s.Close()
	return callTool(ctx, s, *tool, toolArgs, stdout, stderr)
}

// callTool lists the server's tools and calls the one named, or the first.
func callTool(ctx context.Context, s *mcpclient.Session, tool string, args map[string]json.RawMessage, stdout, stderr io.Writer) int {
	tools, err := mcpclient.Collect(s.Tools(ctx))
	if err != nil {
		fmt.Fprintln(stderr, "stdio: tools/list:", err)
		return 1
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	fmt.Fprintf(stderr, "%s offers %d tools: %s\n", s.ServerInfo().Name, len(tools), strings.Join(names, ", "))
	if tool == "" {
		if len(tools) == 0 {
			fmt.Fprintln(stderr, "stdio: the server offers no tools")
			return 1
		}
		tool = tools[0].Name
	}
	res, err := s.CallTool(ctx, tool, args)
	if err != nil {
		fmt.Fprintf(stderr, "stdio: tools/call %s: %v\n", tool, err)
		return 1
	}
	fmt.Fprintln(stdout, res.Text())
	if res.IsError {
		fmt.Fprintf(stderr, "stdio: tool %s reported an error\n", tool)
		return 1
	}
	return 0
}
