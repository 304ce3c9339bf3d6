package toolreg

import (
	"context"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/apps"
)

// MCP Apps (the io.modelcontextprotocol/ui extension) in a registry: a
// tool's visibility decides who may call it — the model sees only the
// tools ModelTools lists, an app reaches only its own server's tools
// visible to apps (CallForApp) — and a tool's interface is read once per
// server and kept until that server's resources change (Interface). A
// host that renders interfaces sets Options.Session.UI to declare the
// extension.

// ModelTools is Tools without the tools whose visibility leaves out the
// model (_meta.ui.visibility ["app"], say): the list to offer a model.
// Those tools stay in Tools, callable by the host and by their apps.
func (r *Registry) ModelTools(ctx context.Context) ([]Tool, error) {
	tools, err := r.Tools(ctx)
	out := tools[:0]
	for _, t := range tools {
		if t.Def == nil || apps.ToolUIOf(t.Def).ModelVisible() {
			out = append(out, t)
		}
	}
	return out, err
}

// Interface is a tool's MCP App: the tool and the interface that renders
// its results.
type Interface struct {
	Tool Tool
	UI   *apps.Resource
}

// Interface returns the interface of the tool with the exposed name:
// read from its server with resources/read the first time, checked
// (apps.Read), and then served from a cache that lasts
// until the server says its resource list changed or reconnects. The
// listing's _meta.ui, when the server lists the resource, is merged
// under the read's. It returns an error wrapping ErrUnknownTool for a
// name no server offers and ErrNoInterface for a tool without one.
func (r *Registry) Interface(ctx context.Context, name string) (*Interface, error) {
	tools, err := r.Tools(ctx)
	if err != nil {
		return nil, err
	}
	var tool *Tool
	for i := range tools {
		if tools[i].Name == name {
			tool = &tools[i]
		}
	}
	if tool == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownTool, name)
	}
	uri := apps.ToolUIOf(tool.Def).ResourceURI
	if uri == "" {
		return nil, fmt.Errorf("%w: %q", ErrNoInterface, name)
	}
	r.mu.Lock()
	srv := r.servers[tool.Server]
	r.mu.Unlock()
	if srv == nil {
		return nil, fmt.Errorf("%w: %q: server %q was removed", ErrUnknownTool, name, tool.Server)
	}
	ui, err := srv.readUI(ctx, uri)
	if err != nil {
		return nil, err
	}
	return &Interface{Tool: *tool, UI: ui}, nil
}

// uiCache holds a server's interfaces, read on the session it names;
// another session (a reconnect) finds it empty. The server's mu guards it.
type uiCache struct {
	session *mcpclient.Session
	byURI   map[string]*uiEntry
	gen     int // counts the times it was emptied
}

// uiEntry is one interface read, shared by every caller that wants it.
type uiEntry struct {
	done chan struct{}
	ui   *apps.Resource
	err  error
}

// readUI returns the interface at uri from the cache, or reads it: once,
// however many callers ask at the same time. A failed read is not kept.
func (s *server) readUI(ctx context.Context, uri string) (*apps.Resource, error) {
	s.mu.Lock()
	if s.uis.session != s.session {
		s.forgetUIs()
		s.uis.session = s.session
	}
	e := s.uis.byURI[uri]
	gen := s.uis.gen
	if e == nil {
		e = &uiEntry{done: make(chan struct{})}
		if s.uis.byURI == nil {
			s.uis.byURI = map[string]*uiEntry{}
		}
		s.uis.byURI[uri] = e
		s.mu.Unlock()
		e.ui, e.err = s.fetchUI(ctx, uri)
		close(e.done)
		s.mu.Lock()
		if (e.err != nil || s.uis.gen != gen) && s.uis.byURI[uri] == e {
			delete(s.uis.byURI, uri)
		}
		s.mu.Unlock()
		return e.ui, e.err
	}
	s.mu.Unlock()
	select {
	case <-e.done:
		return e.ui, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *server) fetchUI(ctx context.Context, uri string) (*apps.Resource, error) {
	session, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	var listed []byte
	if resources, _ := s.listResources(ctx); resources != nil {
		for _, res := range resources {
			if res.URI == uri {
				listed = res.Meta
			}
		}
	}
	ui, err := apps.Read(ctx, session, uri, listed)
	if err != nil {
		return nil, fmt.Errorf("server %q: interface %s: %w", s.cfg.Name, uri, err)
	}
	return ui, nil
}

// forgetUIs empties the interface cache; s.mu is held.
func (s *server) forgetUIs() {
	s.uis.byURI = nil
	s.uis.gen++
}

// CallForApp calls tool (the server's own name for it) on server for an
// app that server's interface runs: the extension lets an app call only
// its own server's tools, and only those visible to apps. It returns an
// error wrapping ErrNotForApp for any other; otherwise it is Call, with
// the approver and hooks.
func (r *Registry) CallForApp(ctx context.Context, server, tool string, args any) (*Result, error) {
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
