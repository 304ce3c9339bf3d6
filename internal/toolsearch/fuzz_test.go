package toolsearch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTerms checks that any text, a server's or a query's, indexes into
// a bounded number of short terms, and that an index of it searches and
// explains without failing.
func FuzzTerms(f *testing.F) {
	for _, s := range []string{"browser_take_screenshot", "getHTTPResponse2JSON", "select:a,b", "ÄÖÜ ß", "\x00\xff\u202e", strings.Repeat("a", 500)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts := terms(s)
		if len(ts) > 2*maxFieldTokens {
			t.Fatalf("%d terms", len(ts))
		}
		for _, term := range ts {
			if len(term) == 0 || len(term) > maxTokenBytes {
				t.Fatalf("term %q", term)
			}
		}
		ix := &Index{}
		ix.Set(s, []Doc{{Server: s, Name: s, Title: s, Description: s, Args: []Arg{{s, s}}}})
		for _, h := range ix.Search(s, 3) {
			ix.Explain(s, h)
		}
		Selected(s)
		if utf8.ValidString(s) {
			for _, w := range words(s, 100) {
				if !utf8.ValidString(w) {
					t.Fatalf("word %q of valid text is not UTF-8", w)
				}
			}
		}
	})
}
