package ui_test

import (
	"context"
	"errors"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/ui"
	"github.com/plainmcp/plainmcp/transport"
)

// appRegistry is a registry over one appserver ("apps").
func appRegistry(t *testing.T) (*toolreg.Registry, *appserver.Server) {
	t.Helper()
	srv := appserver.New()
	o := &toolreg.Options{Session: &mcpclient.Options{UI: true}}
	o.Dial = func(ctx context.Context, sc *toolreg.ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		c := srv.Serve(server)
		s, err := mcpclient.Connect(ctx, client, so)
		if err != nil {
			c.Close()
			return nil, err
		}
		go func() { <-s.Done(); c.Close() }()
		return s, nil
	}
	r, err := toolreg.New(context.Background(), &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "apps", Type: "memory"}}}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, srv
}

// Host MUST reject tools/call requests from apps for tools that don't
// include "app" in visibility; app-only tools stay callable by apps; an
// app reaches no other server's tools.
func TestCallForApp(t *testing.T) {
	r, _ := appRegistry(t)
	ctx := context.Background()
	for _, tc := range []struct {
		server, tool string
		wantErr      error
	}{
		{"apps", "clock", nil},
		{"apps", "tick", nil},
		{"apps", "note", ui.ErrNotForApp},
		{"apps", "missing", ui.ErrNotForApp},
		{"other", "clock", ui.ErrNotForApp},
	} {
		res, err := ui.CallForApp(ctx, r, tc.server, tc.tool, map[string]any{})
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s/%s: err = %v, want %v", tc.server, tc.tool, err, tc.wantErr)
		}
		if err == nil && (res.IsError || len(res.Structured) == 0) {
			t.Errorf("%s/%s: result %+v", tc.server, tc.tool, res)
		}
	}
}
