package toolreg

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
	"github.com/plainmcp/plainmcp/transport"
)

// The registry's tests run real stdio servers: the test binary re-executes
// itself as the demo server when demoEnv is set. The other variables make
// that server misbehave or report on itself.
const (
	demoEnv    = "PLAINMCP_TOOLREG_DEMO"
	pidFileEnv = "PLAINMCP_TOOLREG_PIDFILE" // write the server's pid here
	hungEnv    = "PLAINMCP_TOOLREG_HUNG"    // never answer; exit when stdin closes
	crashEnv   = "PLAINMCP_TOOLREG_CRASH"   // print this to stderr and exit 3 at once
	helperEnv  = "PLAINMCP_TOOLREG_HELPER"  // print this and exit, as a headersHelper
)

func TestMain(m *testing.M) {
	if out, ok := os.LookupEnv(helperEnv); ok {
		fmt.Print(out)
		childexit.Exit(0)
	}
	if os.Getenv(demoEnv) != "" {
		childexit.Exit(serveDemo())
	}
	os.Exit(m.Run())
}

func serveDemo() int {
	if msg := os.Getenv(crashEnv); msg != "" {
		fmt.Fprintln(os.Stderr, msg)
		return 3
	}
	if f := os.Getenv(pidFileEnv); f != "" {
		if err := os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			return 1
		}
	}
	if os.Getenv(hungEnv) != "" {
		// A server that never answers, yet leaves when its client closes
		// stdin as the spec asks: the tests that hang a server wait on
		// the registry, not on the transport's grace before SIGTERM
		// (transport's own tests cover a server that ignores EOF).
		io.Copy(io.Discard, os.Stdin)
		return 0
	}
	stream := transport.NewLineStream(os.Stdin, os.Stdout, nil)
	if err := demoserver.New(nil).Serve(context.Background(), stream); err != nil {
		return 1
	}
	return 0
}
