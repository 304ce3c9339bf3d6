package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const (
	kindFunc  = "func"
	kindCyclo = "complexity"
)

// excess is one thing over its budget.
type excess struct {
	kind    string
	path    string // slash-separated, from the module root
	name    string // the function, for kindFunc and kindCyclo
	measure int
}

func (e excess) key() string { return e.kind + " " + e.path + " " + e.name }

func (e excess) line() string { return fmt.Sprintf("%s %d", e.key(), e.measure) }

func (e excess) String() string {
	if e.kind == kindFunc {
		return fmt.Sprintf("%s: %s is %d lines (budget %d)", e.path, e.name, e.measure, maxFuncLines)
	}
	return fmt.Sprintf("%s: %s has complexity %d (budget %d)", e.path, e.name, e.measure, maxCyclo)
}

// measureTree measures every non-test Go file under root, in a stable order.
func measureTree(root string) ([]excess, error) {
	var out []excess
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		found, err := measureFile(slash(path), src)
		out = append(out, found...)
		return err
	})
	sort.Slice(out, func(i, j int) bool { return out[i].key() < out[j].key() })
	return out, err
}

// measureFile returns what in one file is over budget.
func measureFile(path string, src []byte) ([]excess, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []excess
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		name := funcName(fn)
		lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
		if lines > maxFuncLines {
			out = append(out, excess{kind: kindFunc, path: path, name: name, measure: lines})
		}
		if c := cyclomatic(fn); c > maxCyclo {
			out = append(out, excess{kind: kindCyclo, path: path, name: name, measure: c})
		}
	}
	return out, nil
}

// funcName is Name, or Type.Name for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}

// cyclomatic counts the decision points of a function, plus one.
func cyclomatic(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if x.List != nil {
				c++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
