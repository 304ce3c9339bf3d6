package doclinks

import (
	"go/ast"
	"go/doc/comment"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestGoDocLinksResolve checks every doc link in every doc comment of every
// package: a link to this module must name a declaration that exists.
// Links into the standard library are left to go vet and the reader.
func TestGoDocLinksResolve(t *testing.T) {
	root, module := moduleRoot(t)
	pkgs := loadModule(t, root, module)
	byPath := map[string]*pkg{}
	for _, p := range pkgs {
		byPath[p.path] = p
	}
	checked := 0
	for _, p := range pkgs {
		for _, f := range p.files {
			for _, cg := range docComments(f) {
				for _, link := range docLinks(p, cg.Text()) {
					checked++
					if !resolves(p, byPath, module, link) {
						pos := rel(root, p.fset.Position(f.Package).Filename)
						t.Errorf("%s: doc link [%s] names nothing", pos, linkText(link))
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d doc links found; the walk is broken", checked)
	}
}

// docComments are the comments go doc shows: the package doc and the doc of
// every declaration, spec and field.
func docComments(f *ast.File) []*ast.CommentGroup {
	var out []*ast.CommentGroup
	add := func(cg *ast.CommentGroup) {
		if cg != nil {
			out = append(out, cg)
		}
	}
	add(f.Doc)
	ast.Inspect(f, func(n ast.Node) bool {
		switch d := n.(type) {
		case *ast.FuncDecl:
			add(d.Doc)
			return false // bodies hold no doc comments
		case *ast.GenDecl:
			add(d.Doc)
		case *ast.TypeSpec:
			add(d.Doc)
		case *ast.ValueSpec:
			add(d.Doc)
		case *ast.Field:
			add(d.Doc)
		}
		return true
	})
	return out
}

// docLinks parses text as a doc comment and returns its links. Every
// exported name is taken as a link, so that one naming nothing is caught
// here instead of silently printed as plain text by go doc.
func docLinks(p *pkg, text string) []*comment.DocLink {
	parser := comment.Parser{
		LookupPackage: func(name string) (string, bool) {
			path, ok := p.imports[name]
			return path, ok
		},
		LookupSym: func(recv, name string) bool {
			if recv == "" && shouting(name) {
				return p.syms.names[name] // [DONE], [EOF]: words, not links
			}
			return exported(name) && (recv == "" || exported(recv) || p.syms.names[recv])
		},
	}
	var links []*comment.DocLink
	var walk func(texts []comment.Text)
	walk = func(texts []comment.Text) {
		for i, t := range texts {
			switch x := t.(type) {
			case *comment.DocLink:
				links = append(links, x)
				if m := memberAfter(texts, i, x); m != nil {
					links = append(links, m) // [Options].Handler names a field
				}
			case *comment.Link:
				walk(x.Text)
			case *comment.Italic, comment.Plain:
			}
		}
	}
	for _, b := range parser.Parse(text).Content {
		switch x := b.(type) {
		case *comment.Paragraph:
			walk(x.Text)
		case *comment.List:
			for _, item := range x.Items {
				for _, ib := range item.Content {
					if para, ok := ib.(*comment.Paragraph); ok {
						walk(para.Text)
					}
				}
			}
		}
	}
	return links
}

func resolves(p *pkg, byPath map[string]*pkg, module string, l *comment.DocLink) bool {
	target := p
	if l.ImportPath != "" {
		if l.ImportPath != module && !strings.HasPrefix(l.ImportPath, module+"/") {
			return true // the standard library
		}
		target = nil
		for _, q := range byPath {
			if q.path == l.ImportPath {
				target = q
			}
		}
		if target == nil {
			return false
		}
		if l.Name == "" {
			return true // [pkg] alone
		}
	}
	return target.syms.has(l.Recv, l.Name)
}

// memberAfter reads "[T].Field" — a link followed by a selector — as a
// link to the member, so the field's name is checked too.
func memberAfter(texts []comment.Text, i int, l *comment.DocLink) *comment.DocLink {
	if l.Recv != "" || l.Name == "" || i+1 >= len(texts) {
		return nil
	}
	plain, ok := texts[i+1].(comment.Plain)
	if !ok {
		return nil
	}
	m := memberRE.FindStringSubmatch(string(plain))
	if m == nil {
		return nil
	}
	return &comment.DocLink{ImportPath: l.ImportPath, Recv: l.Name, Name: m[1]}
}

var memberRE = regexp.MustCompile(`^\.([A-Z][A-Za-z0-9_]*)`)

func linkText(l *comment.DocLink) string {
	var parts []string
	if l.ImportPath != "" {
		parts = append(parts, l.ImportPath)
	}
	if l.Recv != "" {
		parts = append(parts, l.Recv)
	}
	if l.Name != "" {
		parts = append(parts, l.Name)
	}
	return strings.Join(parts, ".")
}

func exported(name string) bool {
	for _, r := range name {
		return unicode.IsUpper(r)
	}
	return false
}

// shouting reports whether name is all capitals, like DONE or EOF.
func shouting(name string) bool {
	return len(name) > 1 && strings.ToUpper(name) == name
}

// moduleRoot walks up from the test's directory to go.mod.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if m, ok := strings.CutPrefix(line, "module "); ok {
					return dir, strings.TrimSpace(m)
				}
			}
			t.Fatal("go.mod names no module")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

func rel(root, path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}
