package toolreg

import (
	"context"
	"sync"

	"github.com/plainmcp/plainmcp/internal/toolsearch"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// defaultSearchLimit is SearchTools' limit when the caller gives none.
const defaultSearchLimit = 10

// SearchTools returns at most limit (10 if limit ≤ 0) of the tools of
// every server ranked by how well they answer query, best first: by their
// names split into words, titles, descriptions, argument names and
// descriptions, and server names, with plurals and inflections, synonyms
// (fetch finds get, folder finds directory) and name prefixes matched, at
// lower weights than the words themselves. Tools that match no word of
// the query are left out. A query "select:NAME[,NAME…]" picks the tools
// of those exposed names instead, in that order, leaving out names that
// are not tools.
//
// The tools are listed as Tools lists them, refreshing stale listings;
// the index behind the ranking is built again only for the servers whose
// listing changed since the last search. The error is non-nil only when
// ctx ends.
func (r *Registry) SearchTools(ctx context.Context, query string, limit int) ([]Tool, error) {
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	named, err := r.naming(ctx, true)
	if err != nil {
		return nil, err
	}
	if names, ok := toolsearch.Selected(query); ok {
		return named.pick(names, limit), nil
	}
	return r.search.rank(named, query, limit), nil
}

// pick returns the tools of names, in their order, at most limit.
func (n *namedTools) pick(names []string, limit int) []Tool {
	var out []Tool
	for _, name := range names {
		if n.defs[name] == nil || len(out) == limit {
			continue
		}
		for _, t := range n.tools {
			if t.Name == name {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// toolIndex is the registry's search index, kept in step with its
// listings one server at a time.
type toolIndex struct {
	mu     sync.Mutex
	ix     toolsearch.Index
	listed map[string]listKey // the listing each server's segment was built from
}

// listKey identifies a listing: one is never modified once made (see
// namedTools.sameAs).
type listKey struct {
	first **mcpclient.Tool
	n     int
}

func keyOf(list []*mcpclient.Tool) listKey {
	if len(list) == 0 {
		return listKey{}
	}
	return listKey{&list[0], len(list)}
}

// rank brings the index in step with named and searches it.
func (x *toolIndex) rank(named *namedTools, query string, limit int) []Tool {
	x.mu.Lock()
	defer x.mu.Unlock()
	start := x.sync(named)
	hits := x.ix.Search(query, limit)
	out := make([]Tool, 0, len(hits))
	for _, h := range hits {
		out = append(out, named.tools[start[h.Server]+h.Doc])
	}
	return out
}

// sync indexes again the servers whose listing is not the one their
// segment was built from, forgets the servers that are gone, and
// returns where each server's tools begin in named.tools.
func (x *toolIndex) sync(named *namedTools) map[string]int {
	if x.listed == nil {
		x.listed = map[string]listKey{}
	}
	start := make(map[string]int, len(named.servers))
	at := 0
	for i, s := range named.servers {
		name, list := s.cfg.Name, named.lists[i]
		start[name] = at
		at += len(list)
		if k, ok := x.listed[name]; ok && k == keyOf(list) {
			continue
		}
		x.listed[name] = keyOf(list)
		x.ix.Set(name, docsOf(name, list))
	}
	for name := range x.listed {
		if _, ok := start[name]; !ok {
			delete(x.listed, name)
			x.ix.Remove(name)
		}
	}
	return start
}

// docsOf is a server's listing as the ranker sees it.
func docsOf(server string, list []*mcpclient.Tool) []toolsearch.Doc {
	docs := make([]toolsearch.Doc, len(list))
	for i, t := range list {
		docs[i] = toolsearch.DocOf(server, t)
	}
	return docs
}
