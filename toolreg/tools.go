package toolreg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// Tool is one tool as the registry exposes it.
type Tool struct {
	Name   string          // the exposed name, mcp__<server>__<tool>
	Server string          // the server that offers it
	Def    *mcpclient.Tool // the definition as the server listed it (Def.Name is its own name)
}

// Tools lists the tools of every connected server, fetching again only
// the listings that went stale (a tools/list_changed, a reconnect), and
// names them. The names route later calls: Call never parses a name. A
// server that cannot list contributes the tools it listed last, if any, so
// a call can reconnect it (see Servers for its state); the error is
// non-nil only when ctx ends.
func (r *Registry) Tools(ctx context.Context) ([]Tool, error) {
	return r.tools(ctx, true)
}

// tools lists and names the tools of every server, or, with all unset, of
// the servers started so far (a lazy registry's call lists no more).
func (r *Registry) tools(ctx context.Context, all bool) ([]Tool, error) {
	servers := r.snapshot()
	if !all {
		servers = slices.DeleteFunc(servers, func(s *server) bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.state == StateIdle
		})
	}
	lists, err := listAll(ctx, r, servers, (*server).listTools)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	last := r.named
	r.mu.Unlock()
	if last != nil && last.sameAs(servers, lists) {
		return slices.Clone(last.tools), nil
	}
	var refs []Ref
	for i, s := range servers {
		for _, t := range lists[i] {
			refs = append(refs, Ref{Server: s.cfg.Name, Tool: t.Name})
		}
	}
	names := BuildNames(refs, r.opts.Reserved)
	r.logRenames(names)
	out := make([]Tool, 0, len(refs))
	for i, s := range servers {
		for _, t := range lists[i] {
			name, _ := names.Name(Ref{Server: s.cfg.Name, Tool: t.Name})
			out = append(out, Tool{Name: name, Server: s.cfg.Name, Def: t})
		}
	}
	r.mu.Lock()
	r.names = names
	r.named = &namedTools{servers: servers, lists: lists, tools: out, defs: make(map[string]*mcpclient.Tool, len(out))}
	for _, t := range out {
		r.named.defs[t.Name] = t.Def
	}
	r.mu.Unlock()
	return slices.Clone(out), nil
}

// lookup finds name in the table *table (r.names or r.promptNames), making
// a first listing with list when there is no table yet, and looking again
// after again when the name is not in the table.
func (r *Registry) lookup(ctx context.Context, table **NameTable, list, again func(context.Context) error, name string) (Ref, bool, error) {
	r.mu.Lock()
	names := *table
	r.mu.Unlock()
	if names == nil {
		if err := list(ctx); err != nil {
			return Ref{}, false, err
		}
		r.mu.Lock()
		names = *table
		r.mu.Unlock()
	}
	ref, ok := names.Lookup(name) // nil-safe: a Remove may have reset the table
	if !ok {
		// A listing may be stale (a list_changed not yet acted on) and
		// the name new: list again, and look once more.
		if err := again(ctx); err != nil {
			return Ref{}, false, err
		}
		r.mu.Lock()
		names = *table
		r.mu.Unlock()
		ref, ok = names.Lookup(name)
	}
	return ref, ok, nil
}

// namedTools is the outcome of the last naming, kept so that a listing in
// which no server's tools changed (the usual case: hosts list before every
// model turn) costs a copy rather than naming every tool again.
type namedTools struct {
	servers []*server
	lists   [][]*mcpclient.Tool
	tools   []Tool
	defs    map[string]*mcpclient.Tool // by exposed name
}

// sameAs reports whether servers listed exactly lists when n was named. A
// listing is never modified once made, and every refresh makes a new one,
// so two listings are the same if they share their first element's
// address and their length.
func (n *namedTools) sameAs(servers []*server, lists [][]*mcpclient.Tool) bool {
	if !slices.Equal(n.servers, servers) {
		return false
	}
	for i, l := range lists {
		if len(l) != len(n.lists[i]) || len(l) > 0 && &l[0] != &n.lists[i][0] {
			return false
		}
	}
	return true
}

// Call routes a call by its exposed name to the server that listed the
// tool, after the approver agrees. It returns an error wrapping
// ErrUnknownTool for a name the last listing did not produce (a first
// listing is made if none was), ErrRefused when the approver says no, and
// the session's error when the call could not be made; a tool that ran and
// failed is a Result with IsError and Err set, and a nil error.
func (r *Registry) Call(ctx context.Context, name string, args any) (*Result, error) {
	// Starting and listing serve every caller, not this call: they get
	// its deadline and cancellation, not its values (a progress callback).
	lctx, cancel := withoutValues(ctx)
	defer cancel()
	list := func(ctx context.Context) error { _, err := r.Tools(ctx); return err }
	if r.opts.Lazy {
		// Start only the server the name points to, and list only what
		// is started; a name that fits no idle server lists them all.
		if !r.startFor(lctx, name) {
			list = func(ctx context.Context) error { _, err := r.tools(ctx, false); return err }
		}
	}
	// A name the table lacks may be a tool its server has just added:
	// the servers its mcp__<server>__ prefix names list again, once (a
	// listing in flight is shared), before the call fails.
	again := func(ctx context.Context) error {
		for _, s := range r.serversFor(name) {
			s.relistTools(ctx)
		}
		return list(ctx)
	}
	ref, ok, err := r.lookup(lctx, &r.names, list, again, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownTool, name)
	}
	r.mu.Lock()
	srv := r.servers[ref.Server]
	r.mu.Unlock()
	if srv == nil {
		return nil, fmt.Errorf("%w: %q: server %q was removed", ErrUnknownTool, name, ref.Server)
	}
	call := Call{Name: name, Server: ref.Server, Tool: ref.Tool, Annotations: r.annotations(name)}
	if args != nil {
		// Encoded once: the approver and the hooks see it so, and it
		// goes to the server as it is.
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("toolreg: %s: encoding the arguments: %w", name, err)
		}
		call.Args, args = raw, json.RawMessage(raw)
	}
	if r.opts.Approve != nil {
		err := errors.New("the approver failed") // a panicking approver refuses
		r.hook("Approve", func() { err = r.opts.Approve(ctx, call) })
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrRefused, name, err)
		}
	}
	start := time.Now()
	res, err := r.callServer(ctx, srv, ref.Tool, args)
	d := time.Since(start)
	hookErr := err
	if err == nil && res.Err != nil {
		hookErr = res.Err
	}
	if r.opts.OnToolCall != nil {
		call.InBytes, call.OutBytes = len(call.Args), res.size()
		r.hook("OnToolCall", func() { r.opts.OnToolCall(call, d, hookErr) })
	}
	if err != nil {
		return nil, err
	}
	res.Duration = d
	return res, nil
}

func (r *Registry) callServer(ctx context.Context, srv *server, tool string, args any) (*Result, error) {
	session, err := srv.live(ctx)
	if err != nil {
		return nil, err
	}
	t := srv.cfg.ToolTimeout
	if t == 0 {
		t = r.opts.ToolTimeout
	}
	if t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	res, err := session.CallTool(ctx, tool, args)
	if err != nil {
		return nil, fmt.Errorf("server %q: tool %q: %w", srv.cfg.Name, tool, err)
	}
	out := &Result{Server: srv.cfg.Name, Tool: tool, Content: res.Content, Structured: res.StructuredContent, IsError: res.IsError, Meta: res.Meta}
	if res.IsError {
		msg := res.Text()
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		out.Err = &ToolError{Server: srv.cfg.Name, Tool: tool, Message: msg}
	}
	return out, nil
}

// logRenames reports, once each, the tools a naming gave a name other than
// their plain qualified one: a host should know why a tool is called
// mcp__srv__search_1a2b3c4d.
func (r *Registry) logRenames(names *NameTable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rn := range names.Renames() {
		if r.renamed[rn.Ref] == rn.Name {
			continue
		}
		if r.renamed == nil {
			r.renamed = map[Ref]string{}
		}
		r.renamed[rn.Ref] = rn.Name
		why := "another tool qualifies to the same name"
		if rn.Reserved {
			why = "the host reserves that name"
		}
		r.log.Info("toolreg: tool renamed", "server", rn.Ref.Server, "tool", rn.Ref.Tool, "name", rn.Name, "instead of", rn.Plain, "because", why)
	}
}

// annotations are the annotations of the tool exposed as name, as the
// last naming found it.
func (r *Registry) annotations(name string) *mcpclient.ToolAnnotations {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.named == nil {
		return nil
	}
	if def := r.named.defs[name]; def != nil {
		return def.Annotations
	}
	return nil
}
