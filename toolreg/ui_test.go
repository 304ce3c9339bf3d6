package toolreg

import (
	"context"
	"errors"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/appserver"
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

// Host MUST reject tools/call requests from apps for tools that don't
// include "app" in visibility; app-only tools stay callable by apps; an
// app reaches no other server's tools.
func TestCallForApp(t *testing.T) {
	r, _ := appRegistry(t, nil)
	ctx := context.Background()
	for _, tc := range []struct {
		server, tool string
		wantErr      error
	}{
		{"apps", "clock", nil},
		{"apps", "tick", nil},
		{"apps", "note", ErrNotForApp},
		{"apps", "missing", ErrNotForApp},
		{"other", "clock", ErrNotForApp},
	} {
		res, err := r.CallForApp(ctx, tc.server, tc.tool, map[string]any{})
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s/%s: err = %v, want %v", tc.server, tc.tool, err, tc.wantErr)
		}
		if err == nil && (res.IsError || len(res.Structured) == 0) {
			t.Errorf("%s/%s: result %+v", tc.server, tc.tool, res)
		}
	}
}

// The interface is read once and kept until the server's resource list
// changes; the read's _meta.ui wins over the listing's.
func TestInterfaceCached(t *testing.T) {
	r, srv := appRegistry(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		it, err := r.Interface(ctx, "mcp__apps__clock")
		if err != nil {
			t.Fatal(err)
		}
		if it.UI.HTML != appserver.App || it.UI.URI != appserver.AppURI || it.Tool.Server != "apps" {
			t.Fatalf("interface %+v", it.UI.URI)
		}
		if b := it.UI.Meta.PrefersBorder; b == nil || *b || it.UI.Meta.Domain != "listed.example" {
			t.Errorf("meta = %+v, want the read's prefersBorder (false) and the listing's domain", it.UI.Meta)
		}
	}
	if _, err := r.Interface(ctx, "mcp__apps__legacy"); err != nil {
		t.Fatal(err)
	}
	if n := srv.Reads.Load(); n != 1 {
		t.Errorf("read %d times, want once", n)
	}
	srv.ResourcesChanged(ctx)
	deadline := time.Now().Add(5 * time.Second)
	for srv.Reads.Load() < 2 && time.Now().Before(deadline) {
		if _, err := r.Interface(ctx, "mcp__apps__clock"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := srv.Reads.Load(); n != 2 {
		t.Errorf("after resources/list_changed: read %d times, want 2", n)
	}
	if _, err := r.Interface(ctx, "mcp__apps__note"); !errors.Is(err, ErrNoInterface) {
		t.Errorf("note: err = %v, want ErrNoInterface", err)
	}
	if _, err := r.Interface(ctx, "mcp__apps__nope"); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("nope: err = %v, want ErrUnknownTool", err)
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
