package stdiodial

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/demoproc"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
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
	s, err := Dial(ctx, config(t, "-exit-on-discover"), &mcpclient.Options{})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer s.Close()
	if s.Era() != mcpclient.EraHandshake {
		t.Errorf("era %v, want the handshake", s.Era())
	}
	if _, err := s.CallTool(ctx, "echo", map[string]any{"text": "hi"}); err != nil {
		t.Errorf("CallTool: %v", err)
	}

	for _, opts := range []*mcpclient.Options{{Era: mcpclient.EraStateless}, {ProtocolVersion: "2026-07-28"}} {
		_, err := Dial(ctx, config(t, "-exit-on-discover"), opts)
		if err == nil || !strings.Contains(err.Error(), "exited") || strings.Contains(err.Error(), "started again") {
			t.Errorf("pinned %+v: Dial = %v, want the exit, without a second start", *opts, err)
		}
	}
}
