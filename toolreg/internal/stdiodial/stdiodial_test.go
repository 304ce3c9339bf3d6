package stdiodial

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/demoproc"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport"
)

func TestMain(m *testing.M) {
	demoproc.ServeIfChild()
	os.Exit(m.Run())
}

func config(t *testing.T, args ...string) *mcpjson.ServerConfig {
	cmd := demoproc.Command(t, args...)
	return &mcpjson.ServerConfig{Name: "demo", Command: cmd[0], Args: cmd[1:]}
}

// TestServerThatExitsOnTheProbe: a handshake-era server that ends on
// server/discover (as Python SDK servers before 1.9.4 do) is started again
// and spoken to in its era, unless the caller pinned the era or a version.
func TestServerThatExitsOnTheProbe(t *testing.T) {
	leakcheck.Check(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// -close-on-discover: it closes its stdout and lives on.
	for _, flag := range []string{"-exit-on-discover", "-close-on-discover"} {
		s, err := Dial(ctx, config(t, flag), &mcpclient.Options{})
		if err != nil {
			t.Fatalf("%s: Dial: %v", flag, err)
		}
		if s.Era() != mcpclient.EraHandshake {
			t.Errorf("%s: era %v, want the handshake", flag, s.Era())
		}
		if _, err := s.CallTool(ctx, "echo", map[string]any{"text": "hi"}); err != nil {
			t.Errorf("%s: CallTool: %v", flag, err)
		}
		s.Close()
	}

	for _, opts := range []*mcpclient.Options{{Era: mcpclient.EraStateless}, {ProtocolVersion: "2026-07-28"}} {
		_, err := Dial(ctx, config(t, "-exit-on-discover"), opts)
		if err == nil || !strings.Contains(err.Error(), "exited") || strings.Contains(err.Error(), "started again") {
			t.Errorf("pinned %+v: Dial = %v, want the exit, without a second start", *opts, err)
		}
	}
}

// A server that exits as it starts, probe or no probe, is started twice
// (the first exit could be the probe's doing), and the error says so with
// what it wrote, rather than blaming the probe.
func TestServerThatExitsAsItStarts(t *testing.T) {
	leakcheck.Check(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := Dial(ctx, config(t, "-no-such-flag"), nil)
	if err == nil {
		t.Fatal("Dial of a server that exits at once succeeded")
	}
	var exit *transport.ExitError
	if !errors.As(err, &exit) || exit.Code != 2 {
		t.Errorf("Dial = %v, want its ExitError (status 2)", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "no-such-flag") || strings.Count(msg, "no-such-flag") != 1 {
		t.Errorf("Dial = %v, want what the server wrote, once", err)
	}
	if strings.Contains(msg, "after it exited during the server/discover probe") || !strings.Contains(msg, "started twice") {
		t.Errorf("Dial = %v, want it to say the server exited without the probe too", err)
	}
}
