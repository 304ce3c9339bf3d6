package webui

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// base is the clock's first time; each call of the appserver's clock
// tells one second later.
var base = time.Date(2026, 1, 26, 12, 0, 0, 0, time.UTC)

// startPage serves a page over one in-memory appserver named "apps",
// whose annotations the page trusts (the test's own server).
func startPage(t *testing.T, yes bool) (*Server, *appserver.Server) {
	t.Helper()
	return startPageWith(t, Options{Yes: yes, TrustAnnotations: func(server string) bool { return server == "apps" }})
}

// startPageWith is startPage with opts, but for its registry and trace.
func startPageWith(t *testing.T, opts Options) (*Server, *appserver.Server) {
	t.Helper()
	return startPageOver(t, opts, appserver.New())
}

// startPageOver is startPageWith over app, which the test has set up.
func startPageOver(t *testing.T, opts Options, app *appserver.Server) (*Server, *appserver.Server) {
	t.Helper()
	var n atomic.Int64
	app.Now = func() time.Time { return base.Add(time.Duration(n.Add(1)) * time.Second) }
	trace := &Trace{}
	reg, err := toolreg.New(context.Background(), &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "apps", Type: "memory"}}}, &toolreg.Options{
		Session:    &mcpclient.Options{UI: true},
		WrapStream: trace.Wrap,
		Dial: func(ctx context.Context, sc *toolreg.ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
			client, server := transport.Pipe()
			c := app.Serve(server)
			s, err := mcpclient.Connect(ctx, client, so)
			if err != nil {
				c.Close()
				return nil, err
			}
			go func() { <-s.Done(); c.Close() }()
			return s, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	opts.Registry, opts.Trace = reg, trace
	srv, err := Start(&opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, app
}
