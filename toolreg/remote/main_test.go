package remote

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
	"github.com/plainmcp/plainmcp/toolreg"
)

// helperEnv makes the test binary print its value and exit, as a
// headersHelper.
const helperEnv = "PLAINMCP_REMOTE_HELPER"

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		childexit.Exit(playRole(role))
	}
	if out, ok := os.LookupEnv(helperEnv); ok {
		fmt.Print(out)
		childexit.Exit(0)
	}
	os.Exit(m.Run())
}

func ctx10(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newRegistry opens a registry of servers dialed by d (a new Dialer if
// nil).
func newRegistry(t *testing.T, d *Dialer, servers ...*toolreg.ServerConfig) *toolreg.Registry {
	t.Helper()
	if d == nil {
		d = &Dialer{}
	}
	r, err := toolreg.New(ctx10(t), &toolreg.Config{Servers: servers}, &toolreg.Options{Dial: d.Dial})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
