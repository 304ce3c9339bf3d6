package mcpclient

import (
	"context"
	"errors"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// A call made after Close fails at once and leaves no sweep set: the
// timer, due at the call's default timeout (10 minutes for a tool call),
// kept the closed session from the GC until then.
func TestNoSweepAfterClose(t *testing.T) {
	f := fakemcp.New(t)
	s := connect(t, f, nil)
	s.Close()
	if _, err := s.CallTool(context.Background(), "echo", nil); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("CallTool after Close: %v, want ErrClosed", err)
	}
	s.progressMu.Lock()
	defer s.progressMu.Unlock()
	if s.sweep != nil && s.sweep.Stop() {
		t.Error("the sweep was set after Close")
	}
}
