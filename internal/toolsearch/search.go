package toolsearch

import (
	"container/heap"
	"math"
	"slices"
	"sort"
	"strings"
)

// Ranking constants. The field weights say how much a word counts by
// where it is: a tool's name says what it does, a description says it in
// many words, and argument names and descriptions and the server's name
// only hint. b is BM25's length normalization per field.
var (
	fieldWeights = [nFields]float64{fName: 3, fTitle: 2, fDesc: 1, fArgName: 0.7, fArgDesc: 0.3, fServer: 0.6}
	fieldB       = [nFields]float64{fName: 0.3, fTitle: 0.3, fDesc: 0.6, fArgName: 0.5, fArgDesc: 0.6, fServer: 0}
	fieldNames   = [nFields]string{"name", "title", "description", "argument name", "argument description", "server"}
)

const (
	k1        = 1.2
	minPrefix = 3 // shorter query words match no prefix

	// A query is a model's or a person's words: what is read of it is
	// bounded, and so are the tools it may pick by name.
	maxQueryBytes = 4096
	maxQueryWords = 32
	maxSelected   = 64
)

var (
	synonymWeight = 0.5 // a synonym of a query word counts this much of the word itself
	prefixWeight  = 0.6 // and a name word that the query word begins
	coverage      = 0.5 // how much a tool that matches more of the query's words gains
	nameBonus     = 1.0 // and one whose name's words the query asks for
	rerankPool    = 50  // the hits reranked by nameBonus
	serverPrior   = 1.0 // how much the tools of a server the query names gain
)

// A Hit is one ranked tool: its server, its place in the server's
// documents as given to Set, and its score.
type Hit struct {
	Server string
	Doc    int
	Score  float64
}

// qterm is one term a query word matches, with the weight it carries.
type qterm struct {
	term   string
	word   int     // the query word's place
	weight float64 // with the term's idf
	kind   string  // "exact", "synonym" or "prefix"
}

// queryWords are the stemmed words of a query, each once: of its first
// maxQueryBytes, at most maxQueryWords.
func queryWords(query string) []string {
	var out []string
	for _, t := range termsOf(words(query[:min(len(query), maxQueryBytes)], maxFieldTokens), true) {
		if len(out) == maxQueryWords {
			break
		}
		if !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// expand lists the terms the query words match in any segment: each
// word itself and its synonyms.
func (ix *Index) expand(words []string) []qterm {
	var out []qterm
	for wi, w := range words {
		out = append(out, qterm{w, wi, ix.idf(w), "exact"})
		for _, s := range synonyms[w] {
			out = append(out, qterm{s, wi, synonymWeight * ix.idf(s), "synonym"})
		}
		// A shorter word the query word begins with: an abbreviation
		// (env for environment, repo for repository).
		for k := minPrefix; k < len(w); k++ {
			if ix.df[w[:k]] > 0 && !synonymOf(w, w[:k]) {
				out = append(out, qterm{w[:k], wi, prefixWeight * ix.idf(w[:k]), "prefix"})
			}
		}
	}
	return out
}

// prefixes appends to out the name words of seg that a query word
// begins, other than the word itself and its synonyms.
func (ix *Index) prefixes(out []qterm, words []string, seg *segment) []qterm {
	for wi, w := range words {
		if len(w) < minPrefix {
			continue
		}
		i := sort.SearchStrings(seg.nameTerms, w)
		for ; i < len(seg.nameTerms) && strings.HasPrefix(seg.nameTerms[i], w); i++ {
			if t := seg.nameTerms[i]; t != w && !synonymOf(w, t) {
				out = append(out, qterm{t, wi, prefixWeight * ix.idf(t), "prefix"})
			}
		}
	}
	return out
}

func synonymOf(word, t string) bool { return contains(synonyms[word], t) }

// Search returns at most limit tools ranked by how well they match
// query, best first; ties go to the earlier server and tool. Tools that
// match no word of the query are left out.
func (ix *Index) Search(query string, limit int) []Hit {
	words := queryWords(query)
	if len(words) == 0 || limit <= 0 || ix.nDocs == 0 {
		return nil
	}
	var avg [nFields]float64
	for f := range avg {
		avg[f] = max(float64(ix.lenSum[f])/float64(ix.nDocs), 1)
	}
	for _, seg := range ix.order {
		ix.norms(seg, &avg)
	}
	nw := len(words)
	n := ix.nDocs * nw
	ix.best = slices.Grow(ix.best[:0], n)[:n] // per document and query word: its best match
	clear(ix.best)
	for _, q := range ix.expand(words) {
		for _, sp := range ix.terms[q.term] {
			ix.score(q, sp.seg, sp.post, nw)
		}
	}
	var qs []qterm
	for _, seg := range ix.order {
		for _, q := range ix.prefixes(qs[:0], words, seg) {
			ix.score(q, seg, seg.post[q.term], nw)
		}
	}
	top := &hitHeap{}
	pool := max(limit, rerankPool)
	for _, seg := range ix.order {
		prior := 1.0
		if namesServer(words, seg.serverOf) {
			prior += serverPrior
		}
		ix.collect(top, seg, ix.best[seg.base*nw:(seg.base+len(seg.docs))*nw], nw, pool, prior)
	}
	return ix.rerank(top.sorted(), words, limit)
}

// rerank raises the best hits by how much of their name the query
// covers: a tool called list_projects answers "enumerate my repos" (list
// and project both asked for) better than one whose long description
// says project and list many times. Then it keeps limit of them.
func (ix *Index) rerank(hits []Hit, words []string, limit int) []Hit {
	asked := map[string]bool{}
	for _, w := range words {
		asked[w] = true
		for _, s := range synonyms[w] {
			asked[s] = true
		}
	}
	for i := range hits {
		own := ix.segs[hits[i].Server].nameOf[hits[i].Doc]
		covered := 0
		for _, t := range own {
			if asked[t] || askedPrefix(words, t) {
				covered++
			}
		}
		if len(own) > 0 {
			hits[i].Score *= 1 + nameBonus*float64(covered)/float64(len(own))
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return hits[:min(limit, len(hits))]
}

// askedPrefix reports whether a query word begins name word t, or t
// begins a query word.
func askedPrefix(words []string, t string) bool {
	for _, w := range words {
		if len(w) >= minPrefix && len(t) >= minPrefix && (strings.HasPrefix(t, w) || strings.HasPrefix(w, t)) {
			return true
		}
	}
	return false
}

// namesServer reports whether a query word names the server: it is a
// word of the server's name, or begins one and is four letters or more
// ("mongo" for mongodb, not "git" for github).
func namesServer(words, server []string) bool {
	for _, w := range words {
		for _, t := range server {
			if w == t || len(w) >= 4 && strings.HasPrefix(t, w) {
				return true
			}
		}
	}
	return false
}

// score records what q's postings in seg bring each document, where it
// beats the document's best match of q's query word so far.
func (ix *Index) score(q qterm, seg *segment, post []posting, nw int) {
	for _, p := range post {
		s := q.weight * float64(p.sat)
		if k := (seg.base+int(p.doc))*nw + q.word; s > ix.best[k] {
			ix.best[k] = s
		}
	}
}

// collect offers the documents of seg that matched to top, each scored
// by the sum of its query words' best matches, raised by the share of
// the words it matched and by prior.
func (ix *Index) collect(top *hitHeap, seg *segment, best []float64, nWords, limit int, prior float64) {
	for d := range seg.docs {
		var score float64
		matched := 0
		for _, s := range best[d*nWords : (d+1)*nWords] {
			score += s
			if s > 0 {
				matched++
			}
		}
		if score > 0 {
			score *= (1 + coverage*float64(matched-1)/float64(nWords)) * prior
			top.offer(Hit{Server: seg.server, Doc: d, Score: score}, limit)
		}
	}
}

// idf is BM25's inverse document frequency of a term.
func (ix *Index) idf(term string) float64 {
	df := float64(ix.df[term])
	return math.Log(1 + (float64(ix.nDocs)-df+0.5)/(df+0.5))
}

// saturate is BM25F's term weight: the term's frequency in each field,
// weighted and normalized by the field's length (norm, see norms),
// summed, then saturated.
func saturate(tf [nFields]uint16, norm *[nFields]float32) float64 {
	var x float32
	for f, n := range tf {
		x += float32(n) * norm[f]
	}
	return float64(x) * (k1 + 1) / (k1 + float64(x))
}

// norms computes, for each document of seg, each field's weight divided
// by its length normalization, which saturate multiplies a term's
// frequency by: once per change of the index, not once per posting.
func (ix *Index) norms(seg *segment, avg *[nFields]float64) {
	if seg.normsAt == ix.version && seg.norm != nil {
		return
	}
	seg.norm = slices.Grow(seg.norm[:0], len(seg.docs))[:len(seg.docs)]
	for d, lens := range seg.lens {
		for f, l := range lens {
			seg.norm[d][f] = float32(fieldWeights[f] / (1 - fieldB[f] + fieldB[f]*float64(l)/avg[f]))
		}
	}
	for _, ps := range seg.post {
		for i := range ps {
			ps[i].sat = float32(saturate(ps[i].tf, &seg.norm[ps[i].doc]))
		}
	}
	seg.normsAt = ix.version
}

// hitHeap keeps the best hits seen, the worst on top.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// worse orders hits: a lower score, then a later place.
func worse(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	if a.Server != b.Server {
		return a.Server > b.Server
	}
	return a.Doc > b.Doc
}

func (h *hitHeap) offer(x Hit, limit int) {
	if h.Len() < limit {
		heap.Push(h, x)
	} else if worse((*h)[0], x) {
		(*h)[0] = x
		heap.Fix(h, 0)
	}
}

func (h *hitHeap) sorted() []Hit {
	out := make([]Hit, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(Hit)
	}
	return out
}
