// Package offer decides which of a registry's tools a model is offered,
// and in what form: the MCP tool definitions a model reads, the subset a
// host selects, and whether the definitions are many enough to be deferred
// behind a search tool. It is bridge's Run's rule, kept here so that mcpc
// can say ahead of a run what the run will offer without bridge exporting
// it. It imports toolreg and below, never bridge.
package offer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/apps"
	"github.com/plainmcp/plainmcp/toolreg"
)

// The auto mode's rule: search when the definitions would take more than
// a share of the model's context window.
const (
	defaultContextWindow = 128_000 // tokens, for a model whose window the host does not give
	defaultSearchShare   = 0.10
	bytesPerToken        = 4 // a rough count of the tokens of JSON text
)

// Definitions returns the tools as MCP tool definitions named by their
// exposed names (mcp__server__tool), which is what a model takes in a
// sampling request and what it calls them back by. A tool with no
// description is described by its title, else by its own name and
// server, so that the model is never handed a bare name. Schemas are
// passed on as the server listed them; a tool whose MCP Apps visibility
// leaves out the model is left out.
func Definitions(tools []toolreg.Tool) []*mcpclient.Tool {
	out := make([]*mcpclient.Tool, 0, len(tools))
	for _, t := range tools {
		if t.Def != nil && !apps.ToolUIOf(t.Def).ModelVisible() {
			continue
		}
		d := &mcpclient.Tool{Name: t.Name}
		if t.Def != nil {
			d.Description, d.InputSchema = t.Def.Description, t.Def.InputSchema
			if d.Description == "" {
				d.Description = t.Def.Title
			}
			if d.Description == "" && t.Def.Annotations != nil {
				d.Description = t.Def.Annotations.Title
			}
			if d.Description == "" {
				d.Description = fmt.Sprintf("The tool %q of the MCP server %q.", t.Def.Name, t.Server)
			}
		}
		out = append(out, d)
	}
	return out
}

// Select returns the tools offered: those named in names, if any, that
// filter, if set, keeps (bridge.RunOptions' Tools and ToolFilter).
func Select(tools []toolreg.Tool, names []string, filter func(toolreg.Tool) bool) []toolreg.Tool {
	if len(names) == 0 && filter == nil {
		return tools
	}
	return slices.DeleteFunc(slices.Clone(tools), func(t toolreg.Tool) bool {
		return len(names) > 0 && !slices.Contains(names, t.Name) || filter != nil && !filter(t)
	})
}

// Mode reads a tool search mode (bridge.RunOptions.ToolSearch): "auto"
// (also ""), "on" or "off", in any case; ok is false for anything else.
func Mode(search string) (mode string, ok bool) {
	switch m := strings.ToLower(search); m {
	case "", "auto":
		return "auto", true
	case "on", "off":
		return m, true
	}
	return "", false
}

// SearchOn reports whether offered tools are deferred behind a search
// tool in the mode search (bridge.RunOptions.ToolSearch): always with
// "on", never with "off", and with "auto" (the default) when their
// definitions would take more than share (0: 10 %) of a context window
// of window tokens (0: 128,000), counting a token for every 4 bytes of
// definitions. An unknown mode is never on.
func SearchOn(tools []toolreg.Tool, search string, window int, share float64) bool {
	switch mode, ok := Mode(search); {
	case !ok || mode == "off":
		return false
	case mode == "on":
		return true
	}
	if window <= 0 {
		window = defaultContextWindow
	}
	if share <= 0 {
		share = defaultSearchShare
	}
	return float64(definitionBytes(Definitions(tools))) > share*(float64(window)*bytesPerToken)
}

// definitionBytes is about what defs take in a request.
func definitionBytes(defs []*mcpclient.Tool) int {
	n := 0
	for _, d := range defs {
		n += len(d.Name) + len(d.Description) + len(d.InputSchema) + 40 // the keys and quotes around them
	}
	return n
}
