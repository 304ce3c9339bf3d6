package toolreg

import (
	"context"
	"os"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/transport"
)

// The registry's tests run real stdio servers: the test binary re-executes
// itself as the demo server when this variable is set.
const demoEnv = "PLAINMCP_TOOLREG_DEMO"

func TestMain(m *testing.M) {
	if os.Getenv(demoEnv) != "" {
		stream := transport.NewLineStream(os.Stdin, os.Stdout, nil)
		if err := demoserver.New(nil).Serve(context.Background(), stream); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
