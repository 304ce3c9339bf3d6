package bridge

import (
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// discovery is a Run's state in search mode: the tools whose
// definitions the model has, in the order they were loaded, which is the
// order they are offered in, after the search tool, so the array's
// prefix never changes.
type discovery struct {
	always []string        // RunOptions.AlwaysLoaded
	order  []string        // loaded tools, in the order offered
	loaded map[string]bool // the set of order
}

// maxLoadedTools bounds the definitions a conversation loads by search
// or by call. Each search loads up to maxSearchResults, and the array's
// prefix never changes, so without a bound a long conversation would
// come to carry every definition search mode exists to defer. Past it,
// a found tool is still listed and may still be called by name (it runs
// as any offered tool does, consent and all); only its definition is not
// sent. The always-loaded tools are loaded whatever the count.
const maxLoadedTools = 128

func newDiscovery(always []string) *discovery {
	return &discovery{always: always, loaded: map[string]bool{}}
}

// load offers name from the next request on, if it is not offered yet
// and the conversation's definitions are not full (see maxLoadedTools).
func (d *discovery) load(name string) {
	if d.full() && !slices.Contains(d.always, name) {
		return
	}
	if !d.loaded[name] {
		d.loaded[name] = true
		d.order = append(d.order, name)
	}
}

// full reports whether the conversation has loaded maxLoadedTools.
func (d *discovery) full() bool { return len(d.order) >= maxLoadedTools }

// offer returns the tools of selectable whose definitions go to the
// model, in the order of d, after taking in the always-loaded tools
// that have appeared.
func (d *discovery) offer(selectable []toolreg.Tool) []toolreg.Tool {
	byName := make(map[string]int, len(selectable))
	for i, t := range selectable {
		byName[t.Name] = i
	}
	for _, n := range d.always {
		if _, ok := byName[n]; ok {
			d.load(n)
		}
	}
	out := make([]toolreg.Tool, 0, len(d.order))
	for _, n := range d.order {
		if i, ok := byName[n]; ok {
			out = append(out, selectable[i])
		}
	}
	return out
}

// absorb loads what a turn's calls bring in: the tools each search found
// (read back from its result, so that a conversation taken up again
// from its history loads them in the same order) and each tool called by
// name.
func (d *discovery) absorb(uses, results []mcpclient.Content, selectable []toolreg.Tool) {
	known := make(map[string]bool, len(selectable))
	for _, t := range selectable {
		known[t.Name] = true
	}
	for i, u := range uses {
		if u.Name != searchToolName {
			if known[u.Name] {
				d.load(u.Name)
			}
			continue
		}
		if i >= len(results) || results[i].IsError {
			continue
		}
		for _, c := range results[i].Content {
			for _, line := range strings.Split(c.Text, "\n") {
				name := strings.TrimPrefix(line, "- ")
				if end := strings.IndexAny(name, " :("); end >= 0 {
					name = name[:end]
				}
				if known[name] {
					d.load(name)
				}
			}
		}
	}
}

// fromHistory takes in the tools a conversation loaded before.
func (d *discovery) fromHistory(history []mcpclient.SamplingMessage, selectable []toolreg.Tool) (searched bool) {
	for i, m := range history {
		if m.Role != "assistant" {
			continue
		}
		uses, _ := splitTurn(m.Content)
		var results []mcpclient.Content
		for _, u := range uses {
			searched = searched || u.Name == searchToolName
			results = append(results, resultFor(history[i+1:], u.ID))
		}
		d.absorb(uses, results, selectable)
	}
	return searched
}

// resultFor finds the tool_result of the call id in the next user turn.
func resultFor(rest []mcpclient.SamplingMessage, id string) mcpclient.Content {
	if len(rest) > 0 && rest[0].Role == "user" {
		for _, c := range rest[0].Content {
			if c.Type == "tool_result" && c.ToolUseID == id {
				return c
			}
		}
	}
	return mcpclient.Content{IsError: true}
}
