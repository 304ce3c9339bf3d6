package toolsearch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var smallDocs = map[string][]Doc{
	"github": {
		{Name: "list_issues", Description: "List issues in a GitHub repository.", Args: []Arg{{"owner", "Repository owner"}, {"repo", "Repository name"}}},
		{Name: "create_pull_request", Description: "Create a new pull request in a GitHub repository."},
		{Name: "get_file_contents", Description: "Get the contents of a file or directory from a GitHub repository."},
	},
	"filesystem": {
		{Name: "read_text_file", Description: "Read the complete contents of a file from the file system as text."},
		{Name: "list_directory", Description: "Get a detailed listing of all files and directories in a specified path."},
		{Name: "move_file", Description: "Move or rename files and directories."},
	},
	"playwright": {
		{Name: "browser_take_screenshot", Description: "Take a screenshot of the current page."},
		{Name: "browser_navigate", Description: "Navigate to a URL", Args: []Arg{{"url", "The URL to navigate to"}}},
	},
}

func smallIndex() *Index {
	ix := &Index{}
	for s, docs := range smallDocs {
		ix.Set(s, docs)
	}
	return ix
}

func top(ix *Index, q string) string {
	hits := ix.Search(q, 1)
	if len(hits) == 0 {
		return ""
	}
	return hits[0].Server + "/" + ix.Doc(hits[0]).Name
}

func TestSearchFindsByWhatIsAsked(t *testing.T) {
	ix := smallIndex()
	for _, tc := range []struct{ query, want string }{
		{"list issues", "github/list_issues"},
		{"hey, could you help me list the issues? thanks", "github/list_issues"}, // politeness says nothing
		{"show me the bugs in my project", "github/list_issues"},                 // synonyms: bug, project
		{"open a PR", "github/create_pull_request"},                              // phrase and synonym
		{"what is in this folder", "filesystem/list_directory"},                  // folder → directory
		{"rename a document", "filesystem/move_file"},                            // rename, document → file
		{"capture the page as a picture", "playwright/browser_take_screenshot"},
		{"go to a website", "playwright/browser_navigate"},
		{"screenshots", "playwright/browser_take_screenshot"}, // plural
		{"navig", "playwright/browser_navigate"},              // a prefix of a name word
		{"", ""},
		{"the of and", ""},
		{"zzzqqq", ""},
	} {
		if got := top(ix, tc.query); got != tc.want {
			t.Errorf("Search(%q) found %q first, want %q", tc.query, got, tc.want)
		}
	}
}

// TestIndexFollowsChanges checks that an index changed server by server
// ranks exactly as one built from scratch with the same listings.
func TestIndexFollowsChanges(t *testing.T) {
	ix := smallIndex()
	ix.Set("extra", []Doc{{Name: "send_email", Description: "Send an email message"}})
	ix.Set("github", smallDocs["github"][:1])
	ix.Remove("playwright")
	ix.Remove("nonexistent")

	fresh := &Index{}
	fresh.Set("filesystem", smallDocs["filesystem"])
	fresh.Set("github", smallDocs["github"][:1])
	fresh.Set("extra", []Doc{{Name: "send_email", Description: "Send an email message"}})

	if ix.Len() != fresh.Len() {
		t.Fatalf("Len = %d, want %d", ix.Len(), fresh.Len())
	}
	if diff := cmp.Diff(fresh.df, ix.df); diff != "" {
		t.Errorf("document frequencies (-fresh +changed):\n%s", diff)
	}
	for _, q := range []string{"file", "issues", "mail someone", "screenshot", "list directory"} {
		if got, want := fmt.Sprint(ix.Search(q, 5)), fmt.Sprint(fresh.Search(q, 5)); got != want {
			t.Errorf("Search(%q) = %s, want %s", q, got, want)
		}
	}
	ix.Remove("extra")
	ix.Remove("github")
	ix.Remove("filesystem")
	if ix.Len() != 0 || len(ix.df) != 0 || ix.lenSum != [nFields]int{} {
		t.Errorf("an emptied index keeps %d docs, %d terms, lengths %v", ix.Len(), len(ix.df), ix.lenSum)
	}
}

func TestSearchLimitAndOrder(t *testing.T) {
	ix := smallIndex()
	hits := ix.Search("file", 3)
	if len(hits) != 3 {
		t.Fatalf("%d hits, want 3", len(hits))
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("hit %d scores %v, more than hit %d's %v", i, hits[i].Score, i-1, hits[i-1].Score)
		}
	}
	if hits := ix.Search("file", 0); hits != nil {
		t.Errorf("limit 0 gave %v", hits)
	}
}

func TestExplain(t *testing.T) {
	ix := smallIndex()
	hits := ix.Search("fetch folder", 1)
	if len(hits) != 1 {
		t.Fatal("no hit")
	}
	got := ix.Explain("fetch folder", hits[0])
	want := Reason{Word: "folder", Match: "directory", Field: "name", Kind: "synonym"}
	found := false
	for _, r := range got {
		found = found || r == want
	}
	if !found {
		t.Errorf("Explain = %+v, want it to hold %+v", got, want)
	}
	if got := ix.Explain("x", Hit{Server: "nope"}); got != nil {
		t.Errorf("Explain of an unknown server = %v", got)
	}
}

func TestSelected(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
		ok   bool
	}{
		{"select:a,b, a ,,c", []string{"a", "b", "c"}, true},
		{" select:mcp__x__y", []string{"mcp__x__y"}, true},
		{"select:", nil, true},
		{"please select: a", nil, false},
	} {
		got, ok := Selected(tc.q)
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("Selected(%q) = %q, %v; want %q, %v", tc.q, got, ok, tc.want, tc.ok)
		}
	}
}

// TestQueriesAreBounded checks that a huge query costs what its bounded
// part does: a model may send anything.
func TestQueriesAreBounded(t *testing.T) {
	var b strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&b, "n%d,", i)
	}
	names, _ := Selected("select:" + b.String())
	if len(names) > maxSelected {
		t.Errorf("%d names selected", len(names))
	}
	var many strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&many, "word%c%c ", 'a'+i%26, 'a'+i/26%26)
	}
	if n := len(queryWords(many.String())); n > maxQueryWords {
		t.Errorf("%d query words", n)
	}
	ix := smallIndex()
	ix.Search(strings.Repeat("file ", 1_000_000), 5)
}

// TestSearchFavoursTheServerNamed checks that a query naming a server,
// whole or by a prefix of four letters or more, raises that server's
// tools over equal or better matches elsewhere.
func TestSearchFavoursTheServerNamed(t *testing.T) {
	ix := &Index{}
	ix.Set("filesystem", []Doc{{Name: "find_files", Description: "Find files and documents by name."}})
	ix.Set("mongodb", []Doc{{Name: "find", Description: "Run a find query against a collection of documents."}})
	ix.Set("github", []Doc{{Name: "list_commits", Description: "List the commits of a branch."}})
	ix.Set("git", []Doc{{Name: "git_log", Description: "List the commits of a branch."}})
	for _, tc := range []struct{ query, want string }{
		{"find documents in mongo", "mongodb/find"},
		{"find documents", "filesystem/find_files"},
		{"commits on github", "github/list_commits"},
		{"commits of a branch in git", "git/git_log"},
	} {
		if got := top(ix, tc.query); got != tc.want {
			t.Errorf("Search(%q) found %q first, want %q", tc.query, got, tc.want)
		}
	}
}
