// Package demoproc runs the demo server (package demoserver) as a real
// stdio server for a test: the test binary itself, started again with Arg
// as its first argument, so nothing is built at test time. It is for
// tests only (make check keeps it out of every program).
//
// The child is chosen by an argument rather than by a variable of the
// environment, because a stdio transport passes a server only a small
// safe set of those.
//
//	func TestMain(m *testing.M) {
//		demoproc.ServeIfChild()
//		os.Exit(m.Run())
//	}
//
//	// in a test: a client's command line for the server
//	cmd := demoproc.Command(t, "-page-size", "1")
package demoproc

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// Arg, as the first argument of a test binary whose TestMain calls
// ServeIfChild, makes it the demo server.
const Arg = "serve-demo-server"

// ServeIfChild serves the demo server on standard input and output, then
// exits, when the process was started as one (see Command); otherwise it
// returns at once. Call it first in TestMain.
func ServeIfChild() {
	if len(os.Args) > 1 && os.Args[1] == Arg {
		childexit.Exit(serve(os.Args[2:]))
	}
}

// serve serves the demo server as the command mcp-demo-server does, with
// the flags the tests use (-page-size, -exit-on-discover,
// -close-on-discover), and returns
// the exit status.
func serve(args []string) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	opts := &demoserver.Options{}
	fs.IntVar(&opts.PageSize, "page-size", 0, "")
	exitOnDiscover := fs.Bool("exit-on-discover", false, "")
	closeOnDiscover := fs.Bool("close-on-discover", false, "")
	if fs.Parse(args) != nil {
		return 2
	}
	var stream jsonrpc.Stream = transport.NewLineStream(os.Stdin, os.Stdout, nil)
	if *exitOnDiscover || *closeOnDiscover {
		stream = diesOnDiscover{stream, *closeOnDiscover}
	}
	if err := demoserver.New(opts).Serve(context.Background(), stream); err != nil {
		return 1
	}
	return 0
}

// diesOnDiscover is a server of the handshake era that ends its session
// on server/discover, as the Python SDK before 1.9.4 ends on any request
// whose method it does not know (flag -exit-on-discover): it exits; with
// closeOnly (flag -close-on-discover) it closes its stdout and lives on
// until its stdin ends.
type diesOnDiscover struct {
	jsonrpc.Stream
	closeOnly bool
}

func (d diesOnDiscover) Read() ([]byte, error) {
	frame, err := d.Stream.Read()
	if err == nil && bytes.Contains(frame, []byte(`"server/discover"`)) {
		os.Stderr.WriteString("pydantic_core.ValidationError: 1 validation error for ClientRequest\n")
		if d.closeOnly {
			os.Stdout.Close()
			io.Copy(io.Discard, os.Stdin)
			childexit.Exit(0)
		}
		childexit.Exit(1)
	}
	return frame, err
}

// Command returns the command line that starts the test binary as the
// demo server, given args (-page-size n).
func Command(t testing.TB, args ...string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{exe, Arg}, args...)
}
