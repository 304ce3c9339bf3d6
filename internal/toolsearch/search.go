package toolsearch

import (
	"container/heap"
	"math"
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
	k1            = 1.2
	synonymWeight = 0.5 // a synonym of a query word counts this much of the word itself
	prefixWeight  = 0.6 // and a name word that the query word begins
	minPrefix     = 3   // shorter query words match no prefix
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
	weight float64
	kind   string // "exact", "synonym" or "prefix"
}

// queryWords are the stemmed words of a query, each once.
func queryWords(query string) []string {
	var out []string
	for _, t := range terms(query) {
		if !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// expand lists the terms a query word matches in seg: itself, its
// synonyms, and the name words of seg that it begins.
func expand(word string, seg *segment) []qterm {
	out := []qterm{{word, 1, "exact"}}
	for _, s := range synonyms[word] {
		out = append(out, qterm{s, synonymWeight, "synonym"})
	}
	if len(word) >= minPrefix {
		i := sort.SearchStrings(seg.nameTerms, word)
		for ; i < len(seg.nameTerms) && strings.HasPrefix(seg.nameTerms[i], word); i++ {
			if t := seg.nameTerms[i]; t != word && !synonymOf(word, t) {
				out = append(out, qterm{t, prefixWeight, "prefix"})
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
	top := &hitHeap{}
	best := make([]float64, 0, 64*len(words))
	for _, seg := range ix.order {
		best = best[:0]
		best = append(best, make([]float64, len(seg.docs)*len(words))...)
		for wi, w := range words {
			for _, q := range expand(w, seg) {
				idf := ix.idf(q.term)
				for _, p := range seg.post[q.term] {
					s := q.weight * idf * saturate(p.tf, seg.lens[p.doc], &avg)
					if k := int(p.doc)*len(words) + wi; s > best[k] {
						best[k] = s
					}
				}
			}
		}
		for d := range seg.docs {
			var score float64
			for _, s := range best[d*len(words) : (d+1)*len(words)] {
				score += s
			}
			if score > 0 {
				top.offer(Hit{Server: seg.server, Doc: d, Score: score}, limit)
			}
		}
	}
	return top.sorted()
}

// idf is BM25's inverse document frequency of a term.
func (ix *Index) idf(term string) float64 {
	df := float64(ix.df[term])
	return math.Log(1 + (float64(ix.nDocs)-df+0.5)/(df+0.5))
}

// saturate is BM25F's term weight: the term's frequency in each field,
// weighted and normalized by the field's length, summed, then saturated.
func saturate(tf, lens [nFields]uint16, avg *[nFields]float64) float64 {
	var x float64
	for f, n := range tf {
		if n > 0 {
			x += fieldWeights[f] * float64(n) / (1 - fieldB[f] + fieldB[f]*float64(lens[f])/avg[f])
		}
	}
	return x * (k1 + 1) / (k1 + x)
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
