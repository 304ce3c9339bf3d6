package toolreg

import (
	"context"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// markStale makes the next listing of kind ("tools", "prompts" or
// "resources", as in notifications/<kind>/list_changed) ask the server again.
func (s *server) markStale(kind string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case "tools":
		s.tools.stale = true
	case "prompts":
		s.prompts.stale = true
	case "resources": // templates and extensions' lists (skills), all resources, have no notification of their own
		s.resources.stale, s.templates.stale = true, true
		s.staleExtLists()
		s.forgetReads()
	}
}

// listTools returns the server's tools that its filter permits.
func (s *server) listTools(ctx context.Context) ([]*mcpclient.Tool, error) {
	return cachedList(ctx, s, &s.tools, func(ctx context.Context, session *mcpclient.Session) ([]*mcpclient.Tool, error) {
		tools, err := collect(s, "tools", offersTools, (*mcpclient.Session).Tools)(ctx, session)
		if tools == nil {
			return nil, err
		}
		kept := make([]*mcpclient.Tool, 0, len(tools))
		for _, t := range tools {
			if s.filter.Permits(t.Name) {
				kept = append(kept, t)
			}
		}
		return firstOfEach(s, "tools", kept, func(t *mcpclient.Tool) string { return t.Name }), err // err: the listing stopped at the page cap
	})
}

// firstOfEach keeps the first of the items that share a name. A server
// may list a name twice: both would get the same exposed name, and a
// model API refuses a list of tools in which a name repeats (every
// server's tools with it), while a call, its approver and the host's
// display would each take one of the two definitions.
func firstOfEach[T any](s *server, what string, items []T, name func(T) string) []T {
	seen := make(map[string]bool, len(items))
	kept := items[:0:0]
	for _, it := range items {
		if n := name(it); !seen[n] {
			seen[n] = true
			kept = append(kept, it)
		}
	}
	if dropped := len(items) - len(kept); dropped > 0 {
		s.r.log.Warn("toolreg: a listing repeats names; the first of each is kept", "server", s.cfg.Name, "kind", what, "dropped", dropped)
	}
	return kept
}

// A server lists only what its capabilities offer: one that offers no
// tools (a prompts-only server) is asked for none, and lists none.
func offersTools(c mcpclient.ServerCapabilities) bool     { return c.Tools != nil }
func offersPrompts(c mcpclient.ServerCapabilities) bool   { return c.Prompts != nil }
func offersResources(c mcpclient.ServerCapabilities) bool { return c.Resources != nil }

// listPrompts returns the server's prompts; none if it offers none.
func (s *server) listPrompts(ctx context.Context) ([]*mcpclient.Prompt, error) {
	list := collect(s, "prompts", offersPrompts, (*mcpclient.Session).Prompts)
	return cachedList(ctx, s, &s.prompts, func(ctx context.Context, session *mcpclient.Session) ([]*mcpclient.Prompt, error) {
		prompts, err := list(ctx, session)
		if prompts == nil {
			return nil, err
		}
		return firstOfEach(s, "prompts", prompts, func(p *mcpclient.Prompt) string { return p.Name }), err
	})
}

// listResources returns the server's resources; none if it offers none.
func (s *server) listResources(ctx context.Context) ([]*mcpclient.Resource, error) {
	return cachedList(ctx, s, &s.resources, collect(s, "resources", offersResources, (*mcpclient.Session).Resources))
}

// listTemplates returns the server's resource templates; none if it
// offers no resources.
func (s *server) listTemplates(ctx context.Context) ([]*mcpclient.ResourceTemplate, error) {
	return cachedList(ctx, s, &s.templates,
		collect(s, "resource templates", offersResources, (*mcpclient.Session).ResourceTemplates))
}

// relistTools lists the server's tools again, now, for a call to a name
// that its last listing lacks (the list_changed that announced it may not
// have been acted on yet). A listing in flight is joined instead: it is
// as new, and concurrent callers share one request.
func (s *server) relistTools(ctx context.Context) {
	s.mu.Lock()
	if s.tools.flight == nil && s.state == StateConnected {
		s.tools.stale = true
	}
	s.mu.Unlock()
	s.listTools(ctx)
}
