package toolreg

import (
	"context"

	"github.com/plainmcp/plainmcp/internal/mcpext"
)

// ModelTools is Tools without the tools whose visibility leaves out the
// model (_meta.ui.visibility ["app"], say, of MCP Apps): the list to offer
// a model. Those tools stay in Tools, callable by the host and by their
// apps (package toolreg/ui). The filter reads the one member of _meta.ui
// it needs, so a host that renders no interface links none of MCP Apps.
func (r *Registry) ModelTools(ctx context.Context) ([]Tool, error) {
	tools, err := r.Tools(ctx)
	out := tools[:0]
	for _, t := range tools {
		if t.Def == nil || mcpext.UIVisibleTo(t.Def.Meta, mcpext.VisibleToModel) {
			out = append(out, t)
		}
	}
	return out, err
}
