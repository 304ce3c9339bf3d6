package main

import (
	"context"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/webui"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// cmdWeb serves the local page over the selected servers until
// interrupted: its URL, token included, is the first line of standard
// output. Servers start when the page first lists them.
func cmdWeb(ctx context.Context, e *env, _ []string) error {
	e.opts.Session.UI = true // the page renders MCP Apps
	trace := &webui.Trace{}
	prev := e.opts.WrapStream
	e.opts.WrapStream = func(server string, st jsonrpc.Stream) jsonrpc.Stream {
		if prev != nil {
			st = prev(server, st)
		}
		return trace.Wrap(server, st)
	}
	e.opts.Lazy = true
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	srv, err := webui.Start(&webui.Options{Registry: reg, Trace: trace, Addr: e.cfg.addr, Yes: e.cfg.ask.yes,
		TrustAnnotations: e.cfg.ask.trustsAnnotations()})
	if err != nil {
		return usagef("web: %v", err)
	}
	defer srv.Close()
	if _, err := fmt.Fprintln(e.out.w, srv.URL()); err != nil {
		return err
	}
	if e.cfg.open {
		if err := openBrowser(srv.URL()); err != nil {
			fmt.Fprintf(e.stderr, "mcpc: could not open a browser (%v); open the URL above\n", err)
		}
	}
	<-ctx.Done()
	return nil
}
