package toolsearch

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// The query set (testdata/queries.tsv) asks for tools of real servers
// (testdata/tools.json) as people ask: each line is a split, the tools
// that answer it (server/tool, alternatives separated by "|"), and the
// query. "dev", "harddev", "harddev2" and "harddev3" are the queries
// the ranker was tuned on; "test" (written with dev, every other line),
// "hard" (requests phrased in other words than the tools', written
// before any tuning on harddev) and "hard2" (written with harddev2,
// measured before any tuning on it) are held out. The floors are the
// recall measured: a change that ranks worse fails here.
var recallFloors = map[string]struct{ at5, at10 float64 }{
	"dev":     {0.909, 0.939}, // measured 0.910 and 0.940 (plain BM25: 0.662 and 0.737)
	"test":    {0.886, 0.916}, // measured 0.886 and 0.917 (plain BM25: 0.727 and 0.795)
	"harddev": {0.92, 0.94},   // measured 0.920 and 0.940 (plain BM25: 0.440 and 0.540)
	"hard":    {0.64, 0.80},   // measured 0.640 and 0.800 (plain BM25: 0.380 and 0.500)
	// Written together after the above: 80 held out and 48 to tune on,
	// phrased as people ask without the tools' words, over every
	// server. When written, before any tuning on harddev2: 0.438 and
	// 0.537 on hard2, 0.625 and 0.708 on harddev2.
	"harddev2": {0.9375, 0.958}, // measured 0.938 and 0.958 (plain BM25: 0.500 and 0.583)
	"hard2":    {0.70, 0.725},   // measured 0.700 and 0.725 (plain BM25: 0.362 and 0.475)
	// 40 more to tune on, written when harddev2 was tuned out, over the
	// tools no other split asks for (when written: 0.500 and 0.650).
	"harddev3": {0.725, 0.90}, // measured 0.725 and 0.900 (plain BM25: 0.150 and 0.275)
}

type corpusServer struct {
	Server string            `json:"server"`
	Tools  []*mcpclient.Tool `json:"tools"`
}

func loadCorpus(t testing.TB) []corpusServer {
	t.Helper()
	b, err := os.ReadFile("testdata/tools.json")
	if err != nil {
		t.Fatal(err)
	}
	var servers []corpusServer
	if err := json.Unmarshal(b, &servers); err != nil {
		t.Fatal(err)
	}
	return servers
}

type query struct {
	split, text string
	want        []string // server/tool
}

func loadQueries(t testing.TB) []query {
	t.Helper()
	f, err := os.Open("testdata/queries.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []query
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("queries.tsv:%d: want split, tools and query separated by tabs", n)
		}
		out = append(out, query{split: parts[0], want: strings.Split(parts[1], "|"), text: parts[2]})
	}
	return out
}

// ranker ranks the corpus for a query: server/tool names, best first.
type ranker func(q string, limit int) []string

func toolsearchRanker(servers []corpusServer) ranker {
	ix := &Index{}
	for _, s := range servers {
		docs := make([]Doc, len(s.Tools))
		for i, t := range s.Tools {
			docs[i] = DocOf(s.Server, t)
		}
		ix.Set(s.Server, docs)
	}
	return func(q string, limit int) []string {
		var out []string
		for _, h := range ix.Search(q, limit) {
			out = append(out, h.Server+"/"+ix.Doc(h).Name)
		}
		return out
	}
}

// bm25Ranker is plain BM25 over one field of name, title, description
// and argument names: words lower-cased, no stems, synonyms, prefixes
// or field weights. It is the baseline the ranker is measured against.
func bm25Ranker(servers []corpusServer) ranker {
	type doc struct {
		name string
		tf   map[string]int
		n    int
	}
	var docs []doc
	df := map[string]int{}
	total := 0
	for _, s := range servers {
		for _, t := range s.Tools {
			d := DocOf(s.Server, t)
			text := d.Name + " " + d.Title + " " + d.Description
			for _, a := range d.Args {
				text += " " + a.Name
			}
			ws := words(text, 1<<20)
			tf := map[string]int{}
			for _, w := range ws {
				tf[w]++
			}
			for w := range tf {
				df[w]++
			}
			docs = append(docs, doc{s.Server + "/" + t.Name, tf, len(ws)})
			total += len(ws)
		}
	}
	avg := float64(total) / float64(len(docs))
	return func(q string, limit int) []string {
		scores := make([]float64, len(docs))
		for _, w := range words(q, 1<<20) {
			idf := math.Log(1 + (float64(len(docs))-float64(df[w])+0.5)/(float64(df[w])+0.5))
			for i, d := range docs {
				if f := float64(d.tf[w]); f > 0 {
					scores[i] += idf * f * (k1 + 1) / (f + k1*(1-0.75+0.75*float64(d.n)/avg))
				}
			}
		}
		idx := make([]int, len(docs))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
		var out []string
		for _, i := range idx[:min(limit, len(idx))] {
			if scores[i] > 0 {
				out = append(out, docs[i].name)
			}
		}
		return out
	}
}

// recall is the share of queries of split whose tool is among the
// first k the ranker returns.
func recall(rank ranker, queries []query, split string, k int, misses func(q query, got []string)) float64 {
	found, n := 0, 0
	for _, q := range queries {
		if q.split != split {
			continue
		}
		n++
		got := rank(q.text, k)
		hit := false
		for _, g := range got {
			for _, w := range q.want {
				hit = hit || g == w
			}
		}
		if hit {
			found++
		} else if misses != nil {
			misses(q, got)
		}
	}
	return float64(found) / float64(max(n, 1))
}

// TestRecall measures recall@5 and @10 of the ranker and of plain BM25
// on both splits, and fails if the ranker's falls under its floor or
// under BM25's.
func TestRecall(t *testing.T) {
	servers := loadCorpus(t)
	queries := loadQueries(t)
	ours, base := toolsearchRanker(servers), bm25Ranker(servers)
	for _, split := range []string{"dev", "test", "harddev", "hard", "harddev2", "hard2", "harddev3"} {
		r5, r10 := recall(ours, queries, split, 5, nil), recall(ours, queries, split, 10, nil)
		b5, b10 := recall(base, queries, split, 5, nil), recall(base, queries, split, 10, nil)
		t.Logf("%s: recall@5 %.3f (BM25 %.3f), recall@10 %.3f (BM25 %.3f)", split, r5, b5, r10, b10)
		floor := recallFloors[split]
		if r5 < floor.at5 || r10 < floor.at10 {
			t.Errorf("%s: recall@5 %.3f, @10 %.3f; want at least %.3f and %.3f", split, r5, r10, floor.at5, floor.at10)
		}
		if r5 <= b5 {
			t.Errorf("%s: recall@5 %.3f is no better than plain BM25's %.3f", split, r5, b5)
		}
	}
	if os.Getenv("TOOLSEARCH_MISSES") != "" {
		recall(ours, queries, os.Getenv("TOOLSEARCH_MISSES"), 5, func(q query, got []string) {
			fmt.Printf("MISS %q want %v got %v\n", q.text, q.want, got)
		})
	}
}
