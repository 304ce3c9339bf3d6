package toolsearch

import (
	"fmt"
	"testing"
)

// bigIndex indexes the real corpus over and over, as servers "name-k",
// until it holds n tools: a host with many accounts of the same services
// is the hard case, as every query matches many near-equal tools.
func bigIndex(b *testing.B, n int) (*Index, map[string][]Doc) {
	servers := loadCorpus(b)
	ix := &Index{}
	segs := map[string][]Doc{}
	for k := 0; ix.Len() < n; k++ {
		for _, s := range servers {
			if ix.Len() >= n {
				break
			}
			docs := make([]Doc, 0, len(s.Tools))
			for _, t := range s.Tools[:min(len(s.Tools), n-ix.Len())] {
				docs = append(docs, DocOf(s.Server, t))
			}
			name := fmt.Sprintf("%s-%d", s.Server, k)
			ix.Set(name, docs)
			segs[name] = docs
		}
	}
	return ix, segs
}

// BenchmarkSearch is one query over 10,000 tools.
func BenchmarkSearch(b *testing.B) {
	ix, _ := bigIndex(b, 10_000)
	queries := loadQueries(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		ix.Search(queries[i%len(queries)].text, 5)
	}
}

// BenchmarkUpdateOneServer indexes again one server of a hundred (10,000
// tools in all) whose listing changed.
func BenchmarkUpdateOneServer(b *testing.B) {
	ix := &Index{}
	var docs []Doc
	for _, s := range loadCorpus(b) {
		for _, t := range s.Tools {
			if len(docs) < 100 {
				docs = append(docs, DocOf(s.Server, t))
			}
		}
	}
	for k := range 100 {
		ix.Set(fmt.Sprintf("server%02d", k), docs)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		ix.Set(fmt.Sprintf("server%02d", i%100), docs)
	}
}
