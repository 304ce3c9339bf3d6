package doclinks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// symbols is what one package (or one file) declares at top level: its
// names, and for each type the methods and fields a link may name after a
// dot.
type symbols struct {
	names   map[string]bool
	members map[string]map[string]bool // type name -> method and field names
}

func newSymbols() *symbols {
	return &symbols{names: map[string]bool{}, members: map[string]map[string]bool{}}
}

func (s *symbols) member(typ, name string) {
	if s.members[typ] == nil {
		s.members[typ] = map[string]bool{}
	}
	s.members[typ][name] = true
}

// has reports whether [recv.name] (recv may be empty) names a declaration.
func (s *symbols) has(recv, name string) bool {
	if recv == "" {
		return s.names[name]
	}
	return s.names[recv] && s.members[recv][name]
}

// addFile records every top-level declaration of f.
func (s *symbols) addFile(f *ast.File) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				s.names[d.Name.Name] = true
				continue
			}
			s.member(receiverType(d.Recv.List[0].Type), d.Name.Name)
		case *ast.GenDecl:
			s.addGenDecl(d)
		}
	}
}

func (s *symbols) addGenDecl(d *ast.GenDecl) {
	for _, spec := range d.Specs {
		switch sp := spec.(type) {
		case *ast.TypeSpec:
			s.names[sp.Name.Name] = true
			s.addMembers(sp.Name.Name, sp.Type)
		case *ast.ValueSpec:
			for _, n := range sp.Names {
				s.names[n.Name] = true
			}
		}
	}
}

// addMembers records a struct's fields (an embedded one under its type's
// name) and an interface's methods.
func (s *symbols) addMembers(typ string, expr ast.Expr) {
	var fields *ast.FieldList
	switch t := expr.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, f := range fields.List {
		if len(f.Names) == 0 {
			s.member(typ, receiverType(f.Type))
			continue
		}
		for _, n := range f.Names {
			s.member(typ, n.Name)
		}
	}
}

// receiverType is the bare type name of a receiver or embedded field:
// *T, T[K], pkg.T all give T.
func receiverType(expr ast.Expr) string {
	switch t := expr.(type) {
	case *ast.StarExpr:
		return receiverType(t.X)
	case *ast.IndexExpr:
		return receiverType(t.X)
	case *ast.IndexListExpr:
		return receiverType(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// pkg is one parsed package directory of the module.
type pkg struct {
	dir     string
	path    string // import path
	fset    *token.FileSet
	files   []*ast.File
	syms    *symbols
	imports map[string]string // name used in the files -> import path
}

// loadModule parses the non-test Go files of every package under root.
func loadModule(t *testing.T, root, module string) map[string]*pkg {
	t.Helper()
	pkgs := map[string]*pkg{}
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
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		p := pkgs[dir]
		if p == nil {
			rel, _ := filepath.Rel(root, dir)
			p = &pkg{dir: dir, fset: fset, path: importPath(module, rel), syms: newSymbols(), imports: map[string]string{}}
			pkgs[dir] = p
		}
		p.files = append(p.files, f)
		p.syms.addFile(f)
		addImports(p.imports, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
		name == "testdata" || name == "node_modules" || name == "bin"
}

func importPath(module, rel string) string {
	if rel == "." {
		return module
	}
	return module + "/" + filepath.ToSlash(rel)
}

func addImports(m map[string]string, f *ast.File) {
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name != "_" && name != "." {
			m[name] = path
		}
	}
}
