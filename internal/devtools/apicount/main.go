// Command apicount holds plainmcp's public API to a recorded size: it
// counts, in every package a program outside this module can import (not
// under internal/, not package main, no _test.go files, no testdata), the
// exported names — top-level types, functions, variables and constants, and
// the methods of exported types; struct fields and interface methods are
// not counted, an alias counts once. A package whose count is above the
// one recorded for it in the list fails, and so does one the list does not
// name; a count below the recorded one is reported, so the list only comes
// down.
//
// Usage, from the module root:
//
//	go run ./internal/devtools/apicount -list scripts/api.count           (check)
//	go run ./internal/devtools/apicount -list scripts/api.count -write    (record the counts)
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	list := flag.String("list", "scripts/api.count", "the recorded counts, one \"package count\" a line")
	write := flag.Bool("write", false, "record the current counts in the list")
	flag.Parse()
	counts, err := countTree(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "apicount:", err)
		os.Exit(2)
	}
	if *write {
		if err := os.WriteFile(*list, []byte(format(counts)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "apicount:", err)
			os.Exit(2)
		}
		fmt.Printf("apicount: %d exported names recorded in %s\n", total(counts), *list)
		return
	}
	recorded, err := readList(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apicount:", err)
		os.Exit(2)
	}
	problems, notes := compare(counts, recorded)
	for _, n := range notes {
		fmt.Println("apicount:", n)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "apicount:", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
	fmt.Printf("apicount: %d exported names, none above %s\n", total(counts), *list)
}

// countTree counts the exported names of every importable package under
// root, by directory relative to root.
func countTree(root string) (map[string]int, error) {
	counts := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "internal" || name == "testdata" || name == "node_modules" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" || !countedFile(f) {
			return nil
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		counts[filepath.ToSlash(dir)] += exported(f)
		return nil
	})
	return counts, err
}

// countedFile reports whether f builds on linux/amd64 (without the ignore
// tag): a name declared once per platform is counted once.
func countedFile(f *ast.File) bool {
	for _, group := range f.Comments {
		if group.Pos() > f.Package {
			break
		}
		for _, c := range group.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				return false
			}
			return expr.Eval(func(tag string) bool {
				return tag == "linux" || tag == "amd64" || tag == "unix" || strings.HasPrefix(tag, "go1.")
			})
		}
	}
	return true
}

// exported counts the exported names f declares at its top level.
func exported(f *ast.File) int {
	n := 0
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || exportedType(d.Recv.List[0].Type)) {
				n++
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						n++
					}
				case *ast.ValueSpec:
					for _, name := range s.Names {
						if name.IsExported() {
							n++
						}
					}
				}
			}
		}
	}
	return n
}

// exportedType reports whether a method's receiver type is exported.
func exportedType(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.StarExpr:
		return exportedType(t.X)
	case *ast.IndexExpr:
		return exportedType(t.X)
	case *ast.IndexListExpr:
		return exportedType(t.X)
	case *ast.Ident:
		return t.IsExported()
	}
	return false
}

// compare holds counts to recorded: problems fail the check, notes say
// where the list can come down.
func compare(counts, recorded map[string]int) (problems, notes []string) {
	for _, pkg := range sortedKeys(counts) {
		want, ok := recorded[pkg]
		switch got := counts[pkg]; {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s exports %d names and is not in the list: a new package's API is a decision, record it (-write)", pkg, got))
		case got > want:
			problems = append(problems, fmt.Sprintf("%s exports %d names, %d more than recorded: unexport what only siblings or tests use, or record the growth (-write) and say why", pkg, got, got-want))
		case got < want:
			notes = append(notes, fmt.Sprintf("%s exports %d names, %d fewer than recorded: bring the list down (-write)", pkg, got, want-got))
		}
	}
	for _, pkg := range sortedKeys(recorded) {
		if _, ok := counts[pkg]; !ok {
			notes = append(notes, fmt.Sprintf("%s is in the list but exports nothing now: take it off (-write)", pkg))
		}
	}
	if got, want := total(counts), total(recorded); got > want {
		problems = append(problems, fmt.Sprintf("%d exported names in all, above the %d recorded", got, want))
	}
	return problems, notes
}

// readList reads "package count" lines; # starts a comment.
func readList(path string) (map[string]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var pkg string
		var n int
		if _, err := fmt.Sscanf(line, "%s %d", &pkg, &n); err != nil || n < 0 {
			return nil, fmt.Errorf("%s:%d: want \"package count\", got %q", path, i+1, line)
		}
		if _, dup := counts[pkg]; dup {
			return nil, fmt.Errorf("%s:%d: %s listed twice", path, i+1, pkg)
		}
		counts[pkg] = n
	}
	return counts, nil
}

// format writes the list: a header that says what is counted, then one
// line per package.
func format(counts map[string]int) string {
	var b strings.Builder
	b.WriteString(`# The public API, in exported names per package, checked by make check
# (internal/devtools/apicount): exported top-level types, functions, variables and
# constants, and methods of exported types; struct fields and interface
# methods not counted; internal/, package main and tests excluded. A count
# may only come down: growth fails the check until it is recorded here
# (go run ./internal/devtools/apicount -write) with the reason in the commit.
`)
	fmt.Fprintf(&b, "# total %d\n", total(counts))
	for _, pkg := range sortedKeys(counts) {
		fmt.Fprintf(&b, "%s %d\n", pkg, counts[pkg])
	}
	return b.String()
}

func total(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
