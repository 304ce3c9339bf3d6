package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/internal/offer"
	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Tool search, as the specification's client guide calls progressive
// discovery: instead of every tool's definition, the model gets a host
// tool that searches them, and the definitions of what it found from its
// next request on.
const (
	searchToolName = "search_tools" // the host tool of a Run in search mode

	defaultSearchResults = 5
	maxSearchResults     = 20
	searchLineBytes      = 200 // one found tool's line in the search result
)

// searchToolDef is the search tool's definition.
var searchToolDef = &mcpclient.Tool{
	Name: searchToolName,
	Description: "Search the tools available to you and load the ones you need. Most tools' definitions " +
		"are not in your tool list until you find them: describe what you want to do in a few words " +
		"(\"create a GitHub issue\", \"read a file\"), or pick tools by name with \"select:NAME,NAME\". " +
		"The result lists the matching tools (name, title, description); call any of them from your " +
		"next message on, with the arguments its definition then shows.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{` +
		`"query":{"type":"string","description":"What you want to do, in a few words, or select:NAME[,NAME…]"},` +
		`"limit":{"type":"integer","description":"How many tools at most (default 5, at most 20)","minimum":1,"maximum":20}},` +
		`"required":["query"]}`),
}

// searchMode reads RunOptions.ToolSearch.
func (o *RunOptions) searchMode() (string, error) {
	if m, ok := offer.Mode(o.ToolSearch); ok {
		return m, nil
	}
	return "", fmt.Errorf("bridge: tool search %q: want auto, on or off", o.ToolSearch)
}

// searchOn reports whether a Run with o, offered tools (as selected
// keeps them), defers their definitions behind the search_tools host
// tool: always with ToolSearch "on", never with "off", and with "auto"
// (the default) when their definitions would take more than
// ToolSearchShare (10 % unless set) of ContextWindow (128,000 tokens
// unless set). An unknown mode is never on (Run fails with it).
func (o *RunOptions) searchOn(tools []toolreg.Tool) bool {
	return offer.SearchOn(tools, o.ToolSearch, o.ContextWindow, o.ToolSearchShare)
}

// selected returns the tools a Run with o offers the model: those named
// in Tools, if any, that ToolFilter, if set, keeps.
func (o *RunOptions) selected(tools []toolreg.Tool) []toolreg.Tool {
	return offer.Select(tools, o.Tools, o.ToolFilter)
}

// searchLimit reads the limit a model asked for: JSON has one kind of
// number, and a model may write 5 as 5.0 or 1e9, so any number is taken,
// cut to 1 … maxSearchResults; none, or less than 1, is the default.
func searchLimit(asked float64) int {
	if asked < 1 {
		return defaultSearchResults
	}
	return int(min(asked, maxSearchResults))
}

// search answers a call of the search tool: the selectable tools that
// match, a line each.
func (o *RunOptions) search(ctx context.Context, reg *toolreg.Registry, selectable []toolreg.Tool, u mcpclient.Content, full bool) mcpclient.Content {
	var in struct {
		Query string  `json:"query"`
		Limit float64 `json:"limit"`
	}
	if err := json.Unmarshal(objectOrEmpty(u.Input), &in); err != nil || strings.TrimSpace(in.Query) == "" {
		return refusal(u.ID, `search_tools wants {"query": "what you want to do"}, and a number "limit" if any`)
	}
	limit := searchLimit(in.Limit)
	// Tools the host does not offer may rank first: ask for as many more
	// as there are, so that the limit is met with offered ones.
	all, err := reg.Tools(ctx)
	if err != nil {
		return refusal(u.ID, "not run: "+err.Error())
	}
	found, err := reg.SearchTools(ctx, in.Query, limit+max(len(all)-len(selectable), 0))
	if err != nil {
		return refusal(u.ID, "not run: "+err.Error())
	}
	offered := make(map[string]bool, len(selectable))
	for _, t := range selectable {
		offered[t.Name] = true
	}
	found = slices.DeleteFunc(found, func(t toolreg.Tool) bool { return !offered[t.Name] })
	return searchResult(u.ID, found[:min(len(found), limit)], o.MaxResultBytes, full)
}

// searchResult lists found tools for the model, a line each: the name
// first (absorb reads it back), then the title and the description's
// first line. Once the conversation's definitions are full, it says
// that the tools are called by name instead.
func searchResult(id string, found []toolreg.Tool, limit int, full bool) mcpclient.Content {
	var b strings.Builder
	switch {
	case len(found) == 0:
		b.WriteString("No tool matches. Try other words, or fewer.")
	case full:
		fmt.Fprintf(&b, "%d tools found; this conversation holds as many tool definitions as it may, so call one "+
			"by its name with the arguments its description names:\n", len(found))
	default:
		fmt.Fprintf(&b, "%d tools found; their definitions are offered from your next message on:\n", len(found))
	}
	for _, t := range found {
		desc := offer.Definitions([]toolreg.Tool{t})
		line := t.Name
		if t.Def != nil && t.Def.Title != "" {
			line += " (" + t.Def.Title + ")"
		}
		if len(desc) == 1 {
			first, _, _ := strings.Cut(strings.TrimSpace(desc[0].Description), "\n")
			line += ": " + first
		}
		b.WriteString("- " + safe.Line(line, searchLineBytes) + "\n")
	}
	return mcpclient.Content{Type: "tool_result", ToolUseID: id,
		Content: []mcpclient.Content{textItem(capText(b.String(), limit))}}
}

// turnTools are the tools of one turn: those the model may call, those
// whose definitions it has, and the definitions sent.
type turnTools struct {
	selectable []toolreg.Tool // what selected keeps of the model's tools
	offered    []toolreg.Tool // of those, the ones defined in the request
	defs       []*mcpclient.Tool
}

// offer lists the tools of the next turn. At a Run's first turn it
// decides whether to search (*search set) or not.
func (o *RunOptions) offer(ctx context.Context, reg *toolreg.Registry, tr *Transcript, search **discovery) (turnTools, error) {
	all, err := reg.ModelTools(ctx) // only the tools MCP Apps visibility offers the model
	if err != nil {
		return turnTools{}, fmt.Errorf("listing the tools: %w", err)
	}
	t := turnTools{selectable: o.selected(all)}
	if tr.Turns == 0 {
		d := newDiscovery(o.AlwaysLoaded)
		d.offer(t.selectable) // the always-loaded tools come first, as they did in the history's Run
		searched := d.fromHistory(o.History, t.selectable)
		mode, _ := o.searchMode()
		if mode == "on" || mode == "auto" && (searched || o.searchOn(t.selectable)) {
			*search = d
		}
	}
	if *search == nil {
		t.offered, t.defs = t.selectable, offer.Definitions(t.selectable)
		return t, nil
	}
	t.offered = (*search).offer(t.selectable)
	t.defs = append([]*mcpclient.Tool{searchToolDef}, offer.Definitions(t.offered)...)
	tr.Deferred = len(t.selectable) - len(t.offered)
	return t, nil
}

// turnCalls makes one turn's calls. In search mode the search tool's
// calls are answered here, any offered tool may be called (and is
// loaded), and what the turn found is loaded for the next one.
func (o *RunOptions) turnCalls(ctx context.Context, reg *toolreg.Registry, search *discovery, t turnTools, uses []mcpclient.Content) []mcpclient.Content {
	if search == nil {
		return o.callTools(ctx, reg, t.offered, uses)
	}
	results := make([]mcpclient.Content, len(uses))
	var rest []mcpclient.Content
	var at []int
	for i, u := range uses {
		switch {
		case i >= o.MaxCallsPerTurn: // searches count against the bound as calls do
			results[i] = refusal(u.ID, fmt.Sprintf("not run: at most %d tool calls of one turn run, and this was call %d; "+
				"ask again for the calls still needed, a few at a time", o.MaxCallsPerTurn, i+1))
		case u.Name != searchToolName:
			rest, at = append(rest, u), append(at, i)
		case ctx.Err() != nil:
			results[i] = refusal(u.ID, "not run: "+ctx.Err().Error())
		default:
			results[i] = o.search(ctx, reg, t.selectable, u, search.full())
		}
	}
	for j, r := range o.callTools(ctx, reg, t.selectable, rest) {
		results[at[j]] = r
	}
	search.absorb(uses, results, t.selectable)
	return results
}
