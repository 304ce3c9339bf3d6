package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/plainmcp/plainmcp/internal/toolsearch"
	"github.com/plainmcp/plainmcp/toolreg"
)

// searchLimit is how many tools `tools --search` shows.
const searchLimit = 10

// foundJSON is one tool of `tools --search --json`: the tool, its score
// and why it matched.
type foundJSON struct {
	Name        string              `json:"name"`
	Server      string              `json:"server"`
	Tool        string              `json:"tool"`
	Title       string              `json:"title,omitempty"`
	Description string              `json:"description"`
	Score       float64             `json:"score"`
	Reasons     []toolsearch.Reason `json:"reasons"`
}

// cmdToolsOrSearch is `tools`, or `tools --search QUERY`.
func cmdToolsOrSearch(ctx context.Context, e *env, args []string) error {
	if e.cfg.search == "" {
		return cmdTools(ctx, e, args)
	}
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	if err := searchTools(ctx, e, reg, e.cfg.search); err != nil {
		return err
	}
	return e.checkServers()
}

// searchTools prints the tools that best answer query, ranked as the
// registry's SearchTools ranks them (and picked by name for select:),
// with each score and its reasons.
func searchTools(ctx context.Context, e *env, reg *toolreg.Registry, query string) error {
	var found []foundJSON
	if _, ok := toolsearch.Selected(query); ok {
		tools, err := reg.SearchTools(ctx, query, searchLimit)
		if err != nil {
			return err
		}
		for _, t := range tools {
			found = append(found, foundOf(t, 0, nil))
		}
	} else {
		tools, err := reg.Tools(ctx)
		if err != nil {
			return err
		}
		found = rank(tools, query)
	}
	return e.out.print(found, func(w io.Writer) { printFound(w, found) })
}

// rank ranks tools for query with the ranker of SearchTools.
func rank(tools []toolreg.Tool, query string) []foundJSON {
	var ix toolsearch.Index
	byServer := map[string][]toolreg.Tool{}
	var order []string
	for _, t := range tools {
		if _, ok := byServer[t.Server]; !ok {
			order = append(order, t.Server)
		}
		byServer[t.Server] = append(byServer[t.Server], t)
	}
	for _, s := range order {
		docs := make([]toolsearch.Doc, len(byServer[s]))
		for i, t := range byServer[s] {
			docs[i] = toolsearch.DocOf(s, t.Def)
		}
		ix.Set(s, docs)
	}
	found := []foundJSON{}
	for _, h := range ix.Search(query, searchLimit) {
		t := byServer[h.Server][h.Doc]
		found = append(found, foundOf(t, math.Round(h.Score*1000)/1000, ix.Explain(query, h)))
	}
	return found
}

func foundOf(t toolreg.Tool, score float64, reasons []toolsearch.Reason) foundJSON {
	if reasons == nil {
		reasons = []toolsearch.Reason{}
	}
	return foundJSON{Name: t.Name, Server: t.Server, Tool: t.Def.Name, Title: t.Def.Title,
		Description: t.Def.Description, Score: score, Reasons: reasons}
}

// printFound lists found tools for people: rank, name, score, and the
// description's first line.
func printFound(w io.Writer, found []foundJSON) {
	if len(found) == 0 {
		fmt.Fprintln(w, "no tool matches")
		return
	}
	for i, f := range found {
		fmt.Fprintf(w, "%2d. %s  %.2f\n    %s\n", i+1, clean(f.Name), f.Score, firstLine(f.Description, lineWidth))
	}
}
