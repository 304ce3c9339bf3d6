package toolreg

import (
	"context"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// Prompt is one prompt as the registry exposes it.
type Prompt struct {
	Name   string            // the exposed name, mcp__<server>__<prompt>
	Server string            // the server that offers it
	Def    *mcpclient.Prompt // the definition as the server listed it
}

// Prompts lists the prompts of every connected server, named as tools are
// (see [Qualify]; the host's reserved names do not apply) and cached as
// tools are, refreshed after notifications/prompts/list_changed. A server
// that offers no prompts contributes none; one that cannot list is logged
// and contributes what it listed last. The error is non-nil only when ctx ends.
func (r *Registry) Prompts(ctx context.Context) ([]Prompt, error) {
	servers := r.snapshot()
	lists, err := listAll(ctx, r, servers, (*server).listPrompts)
	if err != nil {
		return nil, err
	}
	var refs []Ref
	for i, s := range servers {
		for _, p := range lists[i] {
			refs = append(refs, Ref{Server: s.cfg.Name, Tool: p.Name})
		}
	}
	names := buildNames(refs, nil)
	r.mu.Lock()
	r.promptNames = names
	r.mu.Unlock()
	var out []Prompt
	for i, s := range servers {
		for _, p := range lists[i] {
			name, _ := names.Name(Ref{Server: s.cfg.Name, Tool: p.Name})
			out = append(out, Prompt{Name: name, Server: s.cfg.Name, Def: p})
		}
	}
	return out, nil
}

// GetPrompt gets a prompt by its exposed name from the server that listed
// it. An unknown name is an error wrapping ErrUnknownTool (a first listing
// is made if none was).
func (r *Registry) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcpclient.GetPromptResult, error) {
	list := func(ctx context.Context) error { _, err := r.Prompts(ctx); return err }
	ref, ok, err := r.lookup(ctx, &r.promptNames, list, list, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: no prompt %q", ErrUnknownTool, name)
	}
	session, err := r.Session(ctx, ref.Server)
	if err != nil {
		return nil, err
	}
	res, err := session.GetPrompt(ctx, ref.Tool, args)
	if err != nil {
		return nil, fmt.Errorf("server %q: prompt %q: %w", ref.Server, ref.Tool, err)
	}
	return res, nil
}
