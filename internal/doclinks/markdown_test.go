package doclinks

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMarkdownCodeLinksResolve checks every relative link in every Markdown
// page of the module (README.md, docs/, any other): the file or folder must
// exist, and a link whose text is a backquoted Go name —
// [`Registry.Call`](../toolreg/call.go) — must name a declaration of that
// file, or of that package if it points at a folder. A link that fails says
// where the name is declared now, if anywhere in the module.
func TestMarkdownCodeLinksResolve(t *testing.T) {
	root, _ := moduleRoot(t)
	res := checkMarkdown(t, root)
	for _, p := range res.problems {
		t.Error(p)
	}
	// The walkthrough alone has some 80 code links: far fewer means the
	// walk or the link pattern broke, and the test would pass on nothing.
	if res.links < 80 || res.codeLinks < 60 || res.pages < 4 {
		t.Errorf("only %d relative links (%d naming Go code) in %d pages; the walk is broken",
			res.links, res.codeLinks, res.pages)
	}
	t.Logf("%d relative links, %d naming Go code, in %d Markdown pages", res.links, res.codeLinks, res.pages)
}

// mdResult is what checking a tree's Markdown found.
type mdResult struct {
	pages, links, codeLinks int
	problems                []string // "page:line: [text](target): what is wrong"
}

// checkMarkdown checks the relative links of every Markdown page under root.
func checkMarkdown(t *testing.T, root string) mdResult {
	t.Helper()
	pages := markdownPages(t, root)
	idx := indexDecls(t, root)
	var res mdResult
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		res.pages++
		for _, l := range markdownLinks(string(data)) {
			if !relativeTarget(l.target) {
				continue
			}
			res.links++
			code, msg := idx.checkLink(root, filepath.Dir(page), l.text, l.target)
			if code {
				res.codeLinks++
			}
			if msg != "" {
				res.problems = append(res.problems,
					fmt.Sprintf("%s:%d: [%s](%s): %s", rel(root, page), l.line, l.text, l.target, msg))
			}
		}
	}
	return res
}

// markdownPages lists the .md files under root, skipping what skipDir
// skips (test data, hidden folders, build output).
func markdownPages(t *testing.T, root string) []string {
	t.Helper()
	var pages []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".md") {
			pages = append(pages, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// mdLink is one link of a page: its text, its target and the line it
// starts on.
type mdLink struct {
	text, target string
	line         int
}

var (
	// An inline link, [text](target "title"); the text may wrap lines.
	inlineLinkRE = regexp.MustCompile(`\[([^\[\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// A reference link's use, [text][ref], and its definition, [ref]: target.
	refUseRE   = regexp.MustCompile(`\[([^\[\]]+)\]\[([^\[\]]*)\]`)
	refDefRE   = regexp.MustCompile(`(?m)^ {0,3}\[([^\[\]]+)\]:\s*<?(\S+?)>?(?:\s|$)`)
	fenceRE    = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	schemeLike = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// markdownLinks returns a page's inline and reference links, outside
// fenced code blocks, where brackets are code and not links.
func markdownLinks(page string) []mdLink {
	text := blankFences(page)
	lineAt := func(off int) int { return strings.Count(text[:off], "\n") + 1 }
	var links []mdLink
	for _, m := range inlineLinkRE.FindAllStringSubmatchIndex(text, -1) {
		links = append(links, mdLink{text: text[m[2]:m[3]], target: text[m[4]:m[5]], line: lineAt(m[0])})
	}
	defs := map[string]string{}
	for _, m := range refDefRE.FindAllStringSubmatch(text, -1) {
		defs[strings.ToLower(m[1])] = m[2]
	}
	for _, m := range refUseRE.FindAllStringSubmatchIndex(text, -1) {
		label, ref := text[m[2]:m[3]], text[m[4]:m[5]]
		if ref == "" {
			ref = label // [text][] uses the text as its label
		}
		if target, ok := defs[strings.ToLower(ref)]; ok {
			links = append(links, mdLink{text: label, target: target, line: lineAt(m[0])})
		}
	}
	return links
}

// blankFences replaces the lines of fenced code blocks with empty lines,
// keeping the line count, so links are looked for in prose only.
func blankFences(page string) string {
	lines := strings.Split(page, "\n")
	fence := ""
	for i, line := range lines {
		m := fenceRE.FindStringSubmatch(line)
		switch {
		case fence == "" && m != nil:
			fence = m[1][:3]
			lines[i] = ""
		case fence != "":
			if m != nil && strings.HasPrefix(m[1], fence) {
				fence = ""
			}
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

func relativeTarget(target string) bool {
	return !schemeLike.MatchString(target) && !strings.HasPrefix(target, "#")
}
