// Package remote dials the MCP servers of a toolreg.Registry over every
// transport a .mcp.json names: stdio, as the registry does alone, and
// http (Streamable HTTP, which falls back to the legacy HTTP+SSE
// transport) and sse over the network, with each server's headers, the
// headers its headersHelper prints, and OAuth (package
// transport/streamhttp/oauth) for a server that asks for authorization
// and has no credentials in its config.
//
// It is apart from package toolreg so that a host of stdio servers alone
// links no net/http or crypto/tls: such a host uses toolreg.New as it is,
// and a host that reaches remote servers uses [New], or passes a
// [Dialer]'s Dial as toolreg.Options.Dial:
//
//	d := &remote.Dialer{TokenStore: &oauth.FileStore{Path: tokenFile}}
//	reg, err := toolreg.New(ctx, cfg, &toolreg.Options{Dial: d.Dial})
//	…
//	for _, st := range reg.Servers() {
//		if st.State == toolreg.StateNeedsAuth {
//			err = d.Authorize(ctx, reg, cfg.Server(st.Name), openBrowser, redirectURL)
//		}
//	}
//
// A server that answers 401 and has no usable token is reported by the
// registry in toolreg.StateNeedsAuth, its error a *toolreg.NeedsAuthError
// naming the authorization server when known, until [Dialer.Authorize]
// runs the flow with the host's user step.
package remote
