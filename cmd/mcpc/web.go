package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/plainmcp/plainmcp/cmd/mcpc/internal/webui"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/remote"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
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
	inbox := e.hookInbox()
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	srv, err := webui.Start(&webui.Options{Registry: reg, Trace: trace, Inbox: inbox, Addr: e.cfg.addr, Yes: e.cfg.ask.yes,
		TrustAnnotations: e.cfg.ask.trustsAnnotations(), Auth: webAuth{e: e, reg: reg}})
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

// hookInbox brings what each server says and asks on its own to the
// page: log messages, list changes, stderr lines; and sampling and
// elicitation (forms and pages to open), which the person answers on the
// page unless --sampling or --elicitation answer them.
func (e *env) hookInbox() *webui.Inbox {
	inbox := &webui.Inbox{}
	roots := make([]mcpclient.Root, len(e.cfg.roots)) // --root: the page's list starts with them
	for i, uri := range e.cfg.roots {
		roots[i] = mcpclient.Root{URI: uri}
	}
	inbox.SetRoots(roots)
	sampling, elicitation := e.cfg.sampling == "", e.cfg.elicitation == ""
	e.visits.page = elicitation
	dial := e.opts.Dial
	if dial == nil {
		dial = (&remote.Dialer{}).Dial // stdio servers as a registry without a Dial starts them
	}
	e.opts.Dial = func(ctx context.Context, sc *toolreg.ServerConfig, o *mcpclient.Options) (*mcpclient.Session, error) {
		own := *o
		inbox.Hook(sc.Name, &own, sampling, elicitation)
		return dial(ctx, sc, &own)
	}
	return inbox
}

// webAuth is mcpc login and logout for the page: the same flow (the same
// loopback listener for the redirect, the same token file, the server
// reconnected after), with the authorization URL shown on the page for
// the person to open instead of at the terminal, and the same revoke and
// forget.
type webAuth struct {
	e   *env
	reg *toolreg.Registry
}

func (a webAuth) Login(ctx context.Context, server string, stepUp bool, show func(authURL string) error) error {
	sc, err := a.e.httpServer(server)
	if err != nil {
		return err
	}
	opts := &oauth.LoginOptions{}
	if stepUp {
		scope, ok := a.e.dialer.StepUpScope(sc)
		if !ok {
			return fmt.Errorf("%s has not asked for more scope", sc.Name)
		}
		opts.Scopes = strings.Fields(scope)
	}
	return a.e.login(ctx, a.reg, sc, opts, show)
}

func (a webAuth) StepUpScope(server string, err error) (string, bool) {
	_, scope, ok := a.e.stepUpScope(server, err)
	return scope, ok
}

// LoggedIn reports whether the token file holds tokens of server's.
func (a webAuth) LoggedIn(ctx context.Context, server string) bool {
	sc := a.e.conf.Server(server)
	store, ok := a.e.dialer.TokenStore.(*oauth.FileStore)
	if sc == nil || (sc.Type != "http" && sc.Type != "sse") || !ok || store == nil {
		return false
	}
	tok, err := store.Load(ctx, sc.URL)
	return err == nil && tok != nil
}

func (a webAuth) Logout(ctx context.Context, server string) (webui.LoggedOut, error) {
	sc, err := a.e.httpServer(server)
	if err != nil {
		return webui.LoggedOut{}, err
	}
	out, err := a.e.logout(ctx, sc)
	return webui.LoggedOut{HadTokens: out.hadTokens, Revoked: out.revoked, RevokeErr: out.revokeErr}, err
}
