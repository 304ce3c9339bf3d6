package doclinks

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// decl is one declaration of the module, as a code link may name it: a
// top-level func, type, var or const (recv empty), or a method, a struct
// field or an interface method of the type recv.
type decl struct {
	file string // absolute path
	line int
	pkg  string // the file's package clause
	recv string
	name string
}

func (d decl) String() string {
	if d.recv == "" {
		return d.name
	}
	return d.recv + "." + d.name
}

// declIndex holds every declaration of every Go file of the module, test
// files included (a page may link a test), parsed with go/parser.
type declIndex struct {
	all    []decl
	byFile map[string][]decl
	pkgOf  map[string]string // file -> its package clause
}

func indexDecls(t *testing.T, root string) *declIndex {
	t.Helper()
	idx := &declIndex{byFile: map[string][]decl{}, pkgOf: map[string]string{}}
	fset := token.NewFileSet()
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
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		idx.pkgOf[path] = f.Name.Name
		for _, d := range fileDecls(fset, f) {
			d.file = path
			idx.byFile[path] = append(idx.byFile[path], d)
			idx.all = append(idx.all, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// fileDecls lists what one file declares, with the line of each name.
func fileDecls(fset *token.FileSet, f *ast.File) []decl {
	var out []decl
	add := func(recv string, id *ast.Ident) {
		out = append(out, decl{line: fset.Position(id.Pos()).Line, pkg: f.Name.Name, recv: recv, name: id.Name})
	}
	for _, dc := range f.Decls {
		switch d := dc.(type) {
		case *ast.FuncDecl:
			recv := ""
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv = receiverType(d.Recv.List[0].Type)
			}
			add(recv, d.Name)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					add("", sp.Name)
					for _, m := range typeMembers(sp.Type) {
						add(sp.Name.Name, m)
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						add("", n)
					}
				}
			}
		}
	}
	return out
}

// typeMembers are a struct's field names (an embedded field by its type's
// name) or an interface's method names.
func typeMembers(expr ast.Expr) []*ast.Ident {
	var fields *ast.FieldList
	switch t := expr.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return nil
	}
	var out []*ast.Ident
	for _, f := range fields.List {
		if len(f.Names) == 0 {
			if name := receiverType(f.Type); name != "" {
				out = append(out, &ast.Ident{NamePos: f.Type.Pos(), Name: name})
			}
			continue
		}
		out = append(out, f.Names...)
	}
	return out
}

// A code link's text: a Go name in backquotes — Name, Type.Method,
// pkg.Name, pkg.Type.Method, (*T).M — with "()" allowed after it.
var (
	goNameRE  = regexp.MustCompile(`^[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*){0,2}$`)
	starRecvE = regexp.MustCompile(`\(\*([\p{L}_][\p{L}\p{N}_]*)\)`)
)

// goName returns the dotted parts of a link text that is a Go name in
// backquotes, or nil for any other text (prose, a path).
func goName(text string) []string {
	inner, ok := strings.CutPrefix(text, "`")
	if !ok {
		return nil
	}
	if inner, ok = strings.CutSuffix(inner, "`"); !ok {
		return nil
	}
	inner = strings.TrimSuffix(inner, "()")
	inner = starRecvE.ReplaceAllString(inner, "$1")
	if !goNameRE.MatchString(inner) {
		return nil
	}
	return strings.Split(inner, ".")
}

// reading is one way to read a code link's name: an optional package
// qualifier, an optional receiver type, the name.
type reading struct{ qual, recv, name string }

func readings(parts []string) []reading {
	switch len(parts) {
	case 1:
		return []reading{{name: parts[0]}}
	case 2:
		return []reading{{qual: parts[0], name: parts[1]}, {recv: parts[0], name: parts[1]}}
	case 3:
		return []reading{{qual: parts[0], recv: parts[1], name: parts[2]}}
	}
	return nil
}

// checkLink checks one relative link of a page in pageDir. code reports
// whether its text is a Go name it checked against the target's Go code;
// msg is what is wrong, or "".
func (idx *declIndex) checkLink(root, pageDir, text, target string) (code bool, msg string) {
	path, _, _ := strings.Cut(target, "#")
	full := filepath.Join(pageDir, filepath.FromSlash(path))
	info, statErr := os.Stat(full)
	parts := goName(text)
	if statErr != nil {
		msg = "no such file or folder"
		if parts != nil {
			msg += idx.whereNow(root, pageDir, parts)
		}
		return parts != nil, msg
	}
	if parts == nil || (!info.IsDir() && !strings.HasSuffix(full, ".go")) {
		return false, ""
	}
	scope, what := idx.scope(root, full, info.IsDir())
	if len(scope) == 0 && info.IsDir() {
		return true, rel(root, full) + " holds no Go package"
	}
	if len(parts) == 1 && idx.packageNamed(full, info.IsDir(), parts[0]) {
		return true, "" // [`toolreg`](../toolreg): the package itself
	}
	for _, r := range readings(parts) {
		if declares(scope, r) {
			return true, ""
		}
	}
	return true, fmt.Sprintf("%s declares no %s%s", what, strings.Join(parts, "."), idx.whereNow(root, pageDir, parts))
}

// scope is the declarations a link to full may name: the file's, or for a
// folder those of its package's non-test files.
func (idx *declIndex) scope(root, full string, isDir bool) (decls []decl, what string) {
	if !isDir {
		return idx.byFile[full], rel(root, full)
	}
	for file, ds := range idx.byFile {
		if filepath.Dir(file) == full && !isTest(file) {
			decls = append(decls, ds...)
		}
	}
	return decls, "the package in " + rel(root, full)
}

// packageNamed reports whether the file, or a non-test file of the
// folder, has the package clause name.
func (idx *declIndex) packageNamed(full string, isDir bool, name string) bool {
	if !isDir {
		return idx.pkgOf[full] == name
	}
	for file, pkg := range idx.pkgOf {
		if filepath.Dir(file) == full && !isTest(file) && pkg == name {
			return true
		}
	}
	return false
}

// declares reports whether decls hold the name as r reads it; a qualifier
// must be the declaring file's package name.
func declares(decls []decl, r reading) bool {
	for _, d := range decls {
		if d.recv == r.recv && d.name == r.name && (r.qual == "" || r.qual == d.pkg) {
			return true
		}
	}
	return false
}

// whereNow says where in the module the name is declared, for a link that
// points at the wrong place: the code moved or was renamed under the page.
func (idx *declIndex) whereNow(root, pageDir string, parts []string) string {
	var found []decl
	for _, d := range idx.all {
		for _, r := range readings(parts) {
			if d.recv == r.recv && d.name == r.name && (r.qual == "" || r.qual == d.pkg) {
				found = append(found, d)
			}
		}
	}
	if len(found) == 0 && len(parts) == 1 {
		// A bare name that is a method or field: the link must say whose.
		for _, d := range idx.all {
			if d.name == parts[0] && d.recv != "" {
				found = append(found, d)
			}
		}
	}
	if len(found) == 0 {
		return "; nothing in the module declares it"
	}
	sort.SliceStable(found, func(i, j int) bool { return !isTest(found[i].file) && isTest(found[j].file) })
	var places []string
	for i, d := range found {
		if i == 3 {
			places = append(places, fmt.Sprintf("and %d more", len(found)-3))
			break
		}
		link, _ := filepath.Rel(pageDir, d.file)
		places = append(places, fmt.Sprintf("`%s` at %s:%d (link %s)", d, rel(root, d.file), d.line, filepath.ToSlash(link)))
	}
	return "; it is declared as " + strings.Join(places, ", ")
}

func isTest(file string) bool { return strings.HasSuffix(file, "_test.go") }
