package doclinks

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCodeLinkCheckCatches runs the Markdown check over a small tree of
// its own (testdata/codelinks), whose page links a name to the wrong file,
// a moved name, a bare method, a wrong package, a name nothing declares, a
// missing file and a test function through its package folder, besides
// links that hold: the check must report exactly the broken ones, each
// with where the name is declared now.
func TestCodeLinkCheckCatches(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "codelinks"))
	if err != nil {
		t.Fatal(err)
	}
	res := checkMarkdown(t, root)
	want := []string{
		"page.md:16: [`T.N`](a/a.go): a/a.go declares no T.N; it is declared as `T.N` at a/b.go:3 (link a/b.go)",
		"page.md:16: [`moved`](a/a.go): a/a.go declares no moved; it is declared as `moved` at a/b.go:5 (link a/b.go)",
		"page.md:16: [`M`](a/a.go): a/a.go declares no M; it is declared as `T.M` at a/a.go:7 (link a/a.go)",
		"page.md:17: [`b.Top`](a/a.go): a/a.go declares no b.Top; nothing in the module declares it",
		"page.md:17: [`Gone`](a): the package in a declares no Gone; nothing in the module declares it",
		"page.md:17: [`Top`](a/missing.go): no such file or folder; it is declared as `Top` at a/a.go:12 (link a/a.go)",
		"page.md:17: [`TestTop`](a): the package in a declares no TestTop; it is declared as `TestTop` at a/a_test.go:5 (link a/a_test.go)",
		"page.md:18: [`V`](a/b.go): a/b.go declares no V; it is declared as `V` at a/a.go:14 (link a/a.go)",
	}
	if diff := cmp.Diff(want, res.problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if res.pages != 1 || res.codeLinks != 23 {
		t.Errorf("checked %d code links in %d pages, want 23 in 1", res.codeLinks, res.pages)
	}
}
