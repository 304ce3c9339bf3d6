package doclinks

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMarkdownCodeLinksResolve checks every relative link in the Markdown
// pages (README.md and docs/): the file or folder must exist, and a link
// whose text is a backquoted Go name — [`Registry.Call`](../toolreg/tools.go)
// — must name a declaration of that file.
func TestMarkdownCodeLinksResolve(t *testing.T) {
	root, _ := moduleRoot(t)
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	pages = append(pages, filepath.Join(root, "README.md"))
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLinkRE.FindAllStringSubmatch(string(data), -1) {
			text, target := m[1], m[2]
			if !relativeTarget(target) {
				continue
			}
			checked++
			if msg := checkMDLink(filepath.Dir(page), text, target); msg != "" {
				t.Errorf("%s: [%s](%s): %s", rel(root, page), text, target, msg)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links found; the walk is broken", checked)
	}
}

var (
	mdLinkRE   = regexp.MustCompile(`\[([^\]\n]+)\]\(([^)\s]+)\)`)
	goNameRE   = regexp.MustCompile("^`([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*)`$")
	schemeLike = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

func relativeTarget(target string) bool {
	return !schemeLike.MatchString(target) && !strings.HasPrefix(target, "#")
}

// checkMDLink returns what is wrong with one link, or "".
func checkMDLink(dir, text, target string) string {
	path, _, _ := strings.Cut(target, "#")
	full := filepath.Join(dir, filepath.FromSlash(path))
	info, err := os.Stat(full)
	if err != nil {
		return "no such file or folder"
	}
	m := goNameRE.FindStringSubmatch(text)
	if info.IsDir() || !strings.HasSuffix(full, ".go") || m == nil {
		return ""
	}
	ok, err := declaredIn(full, strings.Split(m[1], "."))
	if err != nil {
		return err.Error()
	}
	if !ok {
		return "the file declares no " + m[1]
	}
	return ""
}

// declaredIn reports whether a Go file declares the dotted name: Name,
// pkg.Name, Type.Member or pkg.Type.Member.
func declaredIn(file string, parts []string) (bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return false, err
	}
	syms := newSymbols()
	syms.addFile(f)
	imports := map[string]string{}
	addImports(imports, f)
	if len(parts) > 1 && (parts[0] == f.Name.Name || imports[parts[0]] != "") {
		parts = parts[1:] // the package's own name, or one the file imports
	}
	switch len(parts) {
	case 1:
		return syms.names[parts[0]] || isMethod(syms, parts[0]), nil
	case 2:
		// The type may be declared in another file of the package; the
		// method or field must be here.
		return syms.members[parts[0]][parts[1]], nil
	}
	return false, nil
}

// isMethod reports whether name is a method or field declared in the file,
// for a bare [`appendParams`] whose receiver the page's prose names.
func isMethod(syms *symbols, name string) bool {
	for _, members := range syms.members {
		if members[name] {
			return true
		}
	}
	return false
}
