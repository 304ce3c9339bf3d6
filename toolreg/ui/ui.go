// Package ui is MCP Apps (the io.modelcontextprotocol/ui extension) in a
// registry: a tool's interface, read once per server and kept until that
// server's resources change ([Read]), and the calls an app makes, which
// reach only its own server's tools visible to apps ([CallForApp]). A host
// that renders interfaces sets the registry's Options.Session.UI to
// declare the extension, and calls this package; a host that does not
// links none of it. (Which tools a model may see, the registry's
// ModelTools decides for every host.)
package ui

import (
	"context"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/apps"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/internal/ext"
)

// ErrNoInterface is returned by Read for a tool that names no ui://
// interface.
var ErrNoInterface = errors.New("toolreg/ui: the tool has no interface")

// ErrNotForApp is returned by CallForApp for a tool the app may not call:
// one its server does not offer, or whose visibility leaves out "app".
var ErrNotForApp = errors.New("toolreg/ui: the tool is not visible to apps")

// Interface is a tool's MCP App: the tool and the interface that renders
// its results.
type Interface struct {
	Tool toolreg.Tool
	UI   *apps.Resource
}

// Read returns the interface of the registry's tool with the exposed
// name: read from its server with resources/read the first time, checked
// (apps.Read), and then served from a cache that lasts until the server
// says its resource list changed or reconnects. The listing's _meta.ui,
// when the server lists the resource, is merged under the read's. It
// returns an error wrapping toolreg.ErrUnknownTool for a name no server
// offers and ErrNoInterface for a tool without one.
func Read(ctx context.Context, r *toolreg.Registry, name string) (*Interface, error) {
	tools, err := r.Tools(ctx)
	if err != nil {
		return nil, err
	}
	var tool *toolreg.Tool
	for i := range tools {
		if tools[i].Name == name {
			tool = &tools[i]
		}
	}
	if tool == nil {
		return nil, fmt.Errorf("%w: %q", toolreg.ErrUnknownTool, name)
	}
	uri := apps.ToolUIOf(tool.Def).ResourceURI
	if uri == "" {
		return nil, fmt.Errorf("%w: %q", ErrNoInterface, name)
	}
	reg := ext.RegistryOf(r)
	ui, err := reg.Cached(ctx, tool.Server, uri, func(ctx context.Context, session *mcpclient.Session) (any, error) {
		var listed []byte
		for _, res := range reg.Resources(ctx, tool.Server) {
			if res.URI == uri {
				listed = res.Meta
			}
		}
		ui, err := apps.Read(ctx, session, uri, listed)
		if err != nil {
			return nil, fmt.Errorf("server %q: interface %s: %w", tool.Server, uri, err)
		}
		return ui, nil
	})
	if errors.Is(err, toolreg.ErrUnknownTool) { // its server was removed meanwhile
		return nil, fmt.Errorf("%q: %w", name, err)
	}
	if err != nil {
		return nil, err
	}
	return &Interface{Tool: *tool, UI: ui.(*apps.Resource)}, nil
}

// CallForApp calls tool (the server's own name for it) on server for an
// app that server's interface runs: the extension lets an app call only
// its own server's tools, and only those visible to apps. It returns an
// error wrapping ErrNotForApp for any other; otherwise it is the
// registry's Call, with its approver and hooks.
func CallForApp(ctx context.Context, r *toolreg.Registry, server, tool string, args any) (*toolreg.Result, error) {
	tools, err := r.Tools(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		if t.Server == server && t.Def != nil && t.Def.Name == tool {
			if !apps.ToolUIOf(t.Def).AppVisible() {
				break
			}
			return r.Call(ctx, t.Name, args)
		}
	}
	return nil, fmt.Errorf("%w: %q on server %q", ErrNotForApp, tool, server)
}
