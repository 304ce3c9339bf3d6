package toolsearch

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"browser_take_screenshot", []string{"browser", "take", "screenshot"}},
		{"getFileContents", []string{"get", "file", "contents"}},
		{"HTMLParser.parse-v2", []string{"html", "parser", "parse", "v", "2"}},
		{"list_issues2json", []string{"list", "issues", "2", "json"}},
		{"Ünïcode wörds", []string{"ünïcode", "wörds"}},
		{"", nil},
	} {
		if got := words(tc.in, 100); !cmp.Equal(got, tc.want) {
			t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := words("a b c d", 2); len(got) != 2 {
		t.Errorf("words kept %d words, want 2", len(got))
	}
}

// TestStemMeets checks that the inflections of a word meet at one stem,
// and that words which differ stay apart.
func TestStemMeets(t *testing.T) {
	for _, group := range [][]string{
		{"repository", "repositories"},
		{"create", "creates", "created", "creating"},
		{"update", "updated", "updating", "updates"},
		{"file", "files"},
		{"branch", "branches"},
		{"browse", "browser", "browsing"},
		{"stop", "stopped", "stopping"},
		{"search", "searches", "searching", "searched"},
		{"box", "boxes"},
		{"address", "addresses"},
		{"db", "dbs"},
		{"create", "creation"},
		{"delete", "deletion"},
		{"connect", "connection", "connections"},
		{"copy", "copied"},
		{"modify", "modified"},
		{"organize", "organise", "organised"},
		{"analyze", "analysed"},
		{"pr", "prs"},
	} {
		for _, w := range group[1:] {
			if stem(w) != stem(group[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q: want them equal", w, stem(w), group[0], stem(group[0]))
			}
		}
	}
	for _, pair := range [][2]string{{"user", "use"}, {"status", "state"}, {"list", "last"}, {"reaction", "react"}, {"station", "stat"}, {"version", "verse"}, {"viewer", "view"}, {"worker", "work"}} {
		if stem(pair[0]) == stem(pair[1]) {
			t.Errorf("stem(%q) = stem(%q) = %q: want them apart", pair[0], pair[1], stem(pair[0]))
		}
	}
}

func TestTermsDropStopwordsAndJoinPhrases(t *testing.T) {
	got := terms("Show me the open pull requests of my repo")
	want := []string{"show", "open", "pull", "request", "repo", "pr"}
	if !cmp.Equal(got, want) {
		t.Errorf("terms = %q, want %q", got, want)
	}
}

// TestPhrasesStandApart checks that a phrasal verb gives its concept
// with its object between its words, only if it is separable, and that
// the pieces of a contraction say nothing.
func TestPhrasesStandApart(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // a term that must be there, or with a "-" prefix must not
	}{
		{"take Sam off the card", stem("remove")},
		{"kick Dana out of the mobile team", stem("remove")},
		{"throw my local changes away", stem("delete")},
		{"put the old column away", stem("archive")},
		{"look the server name up", "-" + stem("search")}, // not separable
		{"look up a word", stem("search")},
		{"don't publish it", "-don"},
		{"the card's owner", "-s"},
	} {
		got := terms(tc.in)
		want, absent := strings.CutPrefix(tc.want, "-")
		if slices.Contains(got, want) == absent {
			t.Errorf("terms(%q) = %q: want %q", tc.in, got, tc.want)
		}
	}
}

// TestNegatedWordsAreNotAskedFor checks that a request does not ask for
// the word a negation governs, while a tool's text keeps it.
func TestNegatedWordsAreNotAskedFor(t *testing.T) {
	for _, tc := range []struct {
		query   string
		dropped string
		kept    string
	}{
		{"put the old column away without deleting it", "delete", "column"},
		{"write a remark but don't publish it yet", "publish", "remark"},
		{"every page except the drafts", "drafts", "page"},
	} {
		got := queryWords(tc.query)
		if slices.Contains(got, stem(tc.dropped)) || !slices.Contains(got, stem(tc.kept)) {
			t.Errorf("queryWords(%q) = %q: want %q dropped and %q kept", tc.query, got, tc.dropped, tc.kept)
		}
	}
	if got := terms("Read a file without modifying it"); !slices.Contains(got, stem("modifying")) {
		t.Errorf("terms of a description = %q: want the negated word kept", got)
	}
}

// TestContractions checks that the pieces of a negative contraction
// negate, in a request, and are no terms anywhere, while the same words
// without a "t" after them are words.
func TestContractions(t *testing.T) {
	if got := queryWords("which deals have we won this month"); !slices.Contains(got, "won") || !slices.Contains(got, "deal") {
		t.Errorf("queryWords = %q: want won and deal", got)
	}
	if got := queryWords("I can't delete the draft"); slices.Contains(got, stem("delete")) {
		t.Errorf("queryWords = %q: want delete negated", got)
	}
	if got := terms("Don't use it when it won't finish"); slices.Contains(got, "don") || slices.Contains(got, "won") {
		t.Errorf("terms = %q: want no piece of a contraction", got)
	}
}
