package toolreg

import (
	"context"
	"fmt"
)

// A Group is one server's tools, for hosts that present "tools by server"
// or let a model pick a group before its tools. Title, Description and
// Instructions come from the server: data to show, never instructions for
// the host to follow.
type Group struct {
	ID           string   // the server's name in the config
	Title        string   // the server's title, else its name
	Description  string   // the server's description, if it gave one
	Instructions string   // the server's usage hint for a model, if any
	Tools        []string // exposed names (mcp__<server>__<tool>), in listing order
}

// Groups returns one group per enabled server, in config order, with the
// tools of the current listing (see Tools).
func (r *Registry) Groups(ctx context.Context) ([]Group, error) {
	tools, err := r.Tools(ctx)
	if err != nil {
		return nil, err
	}
	byServer := map[string][]string{}
	for _, t := range tools {
		byServer[t.Server] = append(byServer[t.Server], t.Name)
	}
	var out []Group
	for _, s := range r.snapshot() {
		if off(s.cfg) {
			continue
		}
		g := Group{ID: s.cfg.Name, Title: s.cfg.Name, Tools: byServer[s.cfg.Name]}
		s.mu.Lock()
		session := s.session
		s.mu.Unlock()
		if session != nil {
			info := session.ServerInfo()
			if info.Title != "" {
				g.Title = info.Title
			}
			g.Description, g.Instructions = info.Description, session.Instructions()
		}
		out = append(out, g)
	}
	return out, nil
}

// Refresh lists again what the server offers (tools, prompts, resources,
// templates, skills), for servers that never say a list changed, and
// returns the tools listing's error, if any. The next Tools renames from
// the fresh listing.
func (r *Registry) Refresh(ctx context.Context, server string) error {
	r.mu.Lock()
	s := r.servers[server]
	r.mu.Unlock()
	if s == nil {
		return fmt.Errorf("%w: %q", ErrUnknownServer, server)
	}
	s.markStale("tools")
	s.markStale("prompts")
	s.markStale("resources")
	_, err := s.listTools(ctx)
	return err
}
