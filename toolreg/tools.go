package toolreg

import (
	"context"
	"slices"

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
	named, err := r.naming(ctx, all)
	if err != nil {
		return nil, err
	}
	return slices.Clone(named.tools), nil
}

// naming lists the tools as tools does and returns the naming they got,
// which must not be modified.
func (r *Registry) naming(ctx context.Context, all bool) (*namedTools, error) {
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
		return last, nil
	}
	var refs []Ref
	for i, s := range servers {
		for _, t := range lists[i] {
			refs = append(refs, Ref{Server: s.cfg.Name, Tool: t.Name})
		}
	}
	names := buildNames(refs, r.opts.Reserved)
	r.logRenames(names)
	out := make([]Tool, 0, len(refs))
	for i, s := range servers {
		for _, t := range lists[i] {
			name, _ := names.Name(Ref{Server: s.cfg.Name, Tool: t.Name})
			out = append(out, Tool{Name: name, Server: s.cfg.Name, Def: t})
		}
	}
	named := &namedTools{servers: servers, lists: lists, tools: out, defs: make(map[string]*mcpclient.Tool, len(out))}
	for _, t := range out {
		named.defs[t.Name] = t.Def
	}
	r.mu.Lock()
	r.names, r.named = names, named
	r.mu.Unlock()
	return named, nil
}

// lookup finds name in the table *table (r.names or r.promptNames), making
// a first listing with list when there is no table yet, and looking again
// after again when the name is not in the table.
func (r *Registry) lookup(ctx context.Context, table **nameTable, list, again func(context.Context) error, name string) (Ref, bool, error) {
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

// logRenames reports, once each, the tools a naming gave a name other than
// their plain qualified one: a host should know why a tool is called
// mcp__srv__search_1a2b3c4d.
func (r *Registry) logRenames(names *nameTable) {
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
