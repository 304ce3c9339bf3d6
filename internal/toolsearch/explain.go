package toolsearch

import (
	"cmp"
	"slices"
	"strings"
)

// A Reason is why a tool matched a query: a word of the query found a
// term in one of its fields, as itself, as a synonym or as a prefix.
type Reason struct {
	Word  string `json:"word"`  // the query's word (lower-cased)
	Match string `json:"match"` // the term it found in the field, stemmed
	Field string `json:"field"`
	Kind  string `json:"kind"` // "exact", "synonym" or "prefix"
}

// Explain lists why the tool of h matched query: for each query word,
// the best of its matches in each field.
func (ix *Index) Explain(query string, h Hit) []Reason {
	seg := ix.segs[h.Server]
	if seg == nil || h.Doc < 0 || h.Doc >= len(seg.docs) {
		return nil
	}
	said := map[string]string{} // stem → the word of the query
	for _, w := range words(query, maxFieldTokens) {
		if _, ok := said[stem(w)]; !ok {
			said[stem(w)] = w
		}
	}
	var out []Reason
	words := queryWords(query)
	qs := ix.prefixes(ix.expand(words), words, seg)
	slices.SortStableFunc(qs, func(a, b qterm) int { return a.word - b.word })
	for wi, w := range words {
		seen := [nFields]bool{}
		for _, q := range qs {
			if q.word != wi {
				continue
			}
			for _, p := range seg.post[q.term] {
				if int(p.doc) != h.Doc {
					continue
				}
				for f, n := range p.tf {
					if n > 0 && !seen[f] {
						seen[f] = true
						out = append(out, Reason{Word: cmp.Or(said[w], w), Match: q.term, Field: fieldNames[f], Kind: q.kind})
					}
				}
			}
		}
	}
	return out
}

// Selected reports whether query picks tools by name rather than
// searching ("select:NAME[,NAME…]"), and the names it picks, each once,
// at most 64 of them.
func Selected(query string) ([]string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(query[:min(len(query), maxQueryBytes)]), "select:")
	if !ok {
		return nil, false
	}
	var names []string
	for _, n := range strings.Split(rest, ",") {
		if len(names) == maxSelected {
			break
		}
		if n = strings.TrimSpace(n); n != "" && !contains(names, n) {
			names = append(names, n)
		}
	}
	return names, true
}
