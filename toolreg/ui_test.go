package toolreg

import (
	"context"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// appRegistry is a registry over one appserver ("apps"), with opts.
func appRegistry(t *testing.T, opts *Options) (*Registry, *appserver.Server) {
	t.Helper()
	srv := appserver.New()
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Dial = func(ctx context.Context, sc *ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
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
	r, err := New(context.Background(), &Config{Servers: []*ServerConfig{{Name: "apps", Type: "memory"}}}, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, srv
}

func toolNames(tools []Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out
}

// Host MUST NOT include tools in the agent's tool list when their
// visibility does not include "model"; they stay listed for the host.
func TestModelToolsLeaveOutAppOnly(t *testing.T) {
	r, _ := appRegistry(t, nil)
	ctx := context.Background()
	all, err := r.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	model, err := r.ModelTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"mcp__apps__clock", "mcp__apps__legacy", "mcp__apps__note", "mcp__apps__tick"}, toolNames(all)); d != "" {
		t.Errorf("Tools (-want +got)\n%s", d)
	}
	if d := cmp.Diff([]string{"mcp__apps__clock", "mcp__apps__legacy", "mcp__apps__note"}, toolNames(model)); d != "" {
		t.Errorf("ModelTools (-want +got)\n%s", d)
	}
}

// The registry declares MCP Apps only when the host's session options ask.
func TestUIDeclaredByHost(t *testing.T) {
	for _, ui := range []bool{false, true} {
		var got bool
		srv := appserver.New()
		o := &Options{Session: &mcpclient.Options{UI: ui}, Dial: func(ctx context.Context, sc *ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
			got = so.UI
			client, server := transport.Pipe()
			c := srv.Serve(server)
			s, err := mcpclient.Connect(ctx, client, so)
			if err != nil {
				c.Close()
			}
			return s, err
		}}
		r, err := New(context.Background(), &Config{Servers: []*ServerConfig{{Name: "apps", Type: "memory"}}}, o)
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		if got != ui {
			t.Errorf("Session.UI %v: the dialer got UI %v", ui, got)
		}
	}
}
