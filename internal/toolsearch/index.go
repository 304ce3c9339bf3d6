package toolsearch

import (
	"slices"
	"sort"
)

// A Doc is one tool as the ranker sees it.
type Doc struct {
	Server      string
	Name        string // the tool's own name on its server
	Title       string
	Description string
	Args        []Arg
}

// An Arg is one argument of a tool: a property of its input schema.
type Arg struct {
	Name        string
	Description string
}

// The fields of a Doc, in the order of fieldWeights.
const (
	fName = iota
	fTitle
	fDesc
	fArgName
	fArgDesc
	fServer
	nFields
)

// posting is one document's occurrences of a term, per field.
type posting struct {
	doc int32
	tf  [nFields]uint16
	sat float32 // the saturated weight of tf, set by Index.norms
}

// segment indexes the tools of one server.
type segment struct {
	server    string
	base      int // where its documents begin in the index's order
	docs      []Doc
	lens      [][nFields]uint16  // the terms in each field of each doc
	norm      [][nFields]float32 // see Index.norms
	nameOf    [][]string         // the distinct terms of each doc's name
	normsAt   int                // the index's version norm was computed at
	post      map[string][]posting
	nameTerms []string // the distinct terms of the name fields, sorted: prefix matches
	serverOf  []string // the terms of the server's name
	lenSum    [nFields]int
}

// An Index ranks the tools of many servers, kept in one segment per
// server. The zero Index is empty and ready to use. It is not safe for
// concurrent use, Search included (it keeps its scratch space).
type Index struct {
	segs    map[string]*segment
	order   []*segment // by server name: a stable order of documents
	terms   map[string][]segPostings
	df      map[string]int
	nDocs   int
	lenSum  [nFields]int
	best    []float64 // Search's scratch
	version int       // counts the changes: the average field lengths change with each
}

// segPostings are the postings of a term in one segment: the index keeps
// them by term, so that a query looks each of its terms up once, not
// once per server.
type segPostings struct {
	seg  *segment
	post []posting
}

// Set indexes the tools of server, replacing what the index held of it.
// Only that server's segment is built; the others are left as they are.
func (ix *Index) Set(server string, docs []Doc) {
	ix.Remove(server)
	seg := buildSegment(server, docs)
	if ix.segs == nil {
		ix.segs, ix.df, ix.terms = map[string]*segment{}, map[string]int{}, map[string][]segPostings{}
	}
	ix.segs[server] = seg
	i, _ := slices.BinarySearchFunc(ix.order, server, func(s *segment, name string) int {
		return compareStrings(s.server, name)
	})
	ix.order = slices.Insert(ix.order, i, seg)
	ix.account(seg, 1)
	ix.rebase()
}

// rebase places the segments' documents one after the other, after a
// change.
func (ix *Index) rebase() {
	ix.version++
	at := 0
	for _, s := range ix.order {
		s.base = at
		at += len(s.docs)
	}
}

// Remove forgets the tools of server.
func (ix *Index) Remove(server string) {
	seg := ix.segs[server]
	if seg == nil {
		return
	}
	delete(ix.segs, server)
	ix.order = slices.DeleteFunc(ix.order, func(s *segment) bool { return s == seg })
	ix.account(seg, -1)
	ix.rebase()
}

// Len is the number of tools indexed.
func (ix *Index) Len() int { return ix.nDocs }

// Doc returns the document a hit points to.
func (ix *Index) Doc(h Hit) *Doc { return &ix.segs[h.Server].docs[h.Doc] }

// account adds (sign 1) or takes away (sign -1) seg's documents from
// the index-wide statistics: document frequencies and field lengths.
func (ix *Index) account(seg *segment, sign int) {
	ix.nDocs += sign * len(seg.docs)
	for f := range ix.lenSum {
		ix.lenSum[f] += sign * seg.lenSum[f]
	}
	for t, ps := range seg.post {
		n := ix.df[t] + sign*len(ps)
		if n <= 0 {
			delete(ix.df, t)
		} else {
			ix.df[t] = n
		}
		list := ix.terms[t]
		if sign > 0 {
			list = append(list, segPostings{seg, ps})
		} else {
			list = slices.DeleteFunc(list, func(sp segPostings) bool { return sp.seg == seg })
		}
		if len(list) == 0 {
			delete(ix.terms, t)
		} else {
			ix.terms[t] = list
		}
	}
}

func buildSegment(server string, docs []Doc) *segment {
	seg := &segment{server: server, docs: docs, lens: make([][nFields]uint16, len(docs)), post: map[string][]posting{}}
	serverTerms := terms(server)
	seg.serverOf = serverTerms
	names := map[string]bool{}
	tf := map[string]*posting{}
	for i := range docs {
		d := &docs[i]
		fields := [nFields][]string{fName: terms(d.Name), fTitle: terms(d.Title), fDesc: terms(d.Description), fServer: serverTerms}
		for _, a := range d.Args {
			if len(fields[fArgDesc]) < maxFieldTokens {
				fields[fArgName] = append(fields[fArgName], terms(a.Name)...)
				fields[fArgDesc] = append(fields[fArgDesc], terms(a.Description)...)
			}
		}
		clear(tf)
		var own []string
		for _, t := range fields[fName] {
			if !contains(own, t) {
				own = append(own, t)
			}
		}
		seg.nameOf = append(seg.nameOf, own)
		for f, ts := range fields {
			seg.lens[i][f] = uint16(min(len(ts), 65535))
			seg.lenSum[f] += len(ts)
			for _, t := range ts {
				p := tf[t]
				if p == nil {
					p = &posting{doc: int32(i)}
					tf[t] = p
				}
				if p.tf[f] < 65535 {
					p.tf[f]++
				}
				if f == fName || f == fTitle {
					names[t] = true
				}
			}
		}
		for t, p := range tf {
			seg.post[t] = append(seg.post[t], *p)
		}
	}
	for t := range names {
		seg.nameTerms = append(seg.nameTerms, t)
	}
	sort.Strings(seg.nameTerms)
	return seg
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Segment is an opaque handle on the segment of server, nil if there is
// none: equal handles mean the segment was not built again.
func (ix *Index) Segment(server string) any {
	if s := ix.segs[server]; s != nil {
		return s
	}
	return nil
}
