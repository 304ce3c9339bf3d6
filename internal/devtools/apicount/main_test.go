package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tree with one package of each kind: only the importable one counts, and
// in it only exported top-level names and the methods of exported types.
func TestCountTree(t *testing.T) {
	root := t.TempDir()
	write := func(path, src string) {
		t.Helper()
		p := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a.go", `package a
type T struct{ Field int }            // 1 (the field is not counted)
type I interface{ M() }               // 1 (nor the interface's method)
type Alias = T                        // 1
type t struct{}
func (T) Exported()   {}              // 1
func (*T) Pointer()   {}              // 1
func (T) unexported() {}
func (t) Hidden()     {}              // a method of an unexported type
func F()              {}              // 1
func f()              {}
var V, W, x = 1, 2, 3                 // 2
const C = 1                           // 1
`)
	write("a/a_test.go", "package a\nfunc Test() {}\n")
	write("a/other.go", "//go:build windows\n\npackage a\nfunc OnWindows() {}\n")
	write("a/internal/b/b.go", "package b\nfunc B() {}\n")
	write("cmd/c/main.go", "package main\nfunc Main() {}\n")
	write("a/testdata/d.go", "package d\nfunc D() {}\n")
	counts, err := countTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != 1 || counts["a"] != 9 {
		t.Errorf("counts = %v, want map[a:9]", counts)
	}
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name             string
		counts, recorded map[string]int
		problems, notes  int
	}{
		{"same", map[string]int{"a": 3}, map[string]int{"a": 3}, 0, 0},
		{"grew", map[string]int{"a": 4}, map[string]int{"a": 3}, 2, 0}, // the package and the total
		{"shrank", map[string]int{"a": 2}, map[string]int{"a": 3}, 0, 1},
		{"new package", map[string]int{"a": 3, "b": 1}, map[string]int{"a": 3}, 2, 0},
		{"new package paid for", map[string]int{"a": 2, "b": 1}, map[string]int{"a": 3}, 1, 1},
		{"gone", map[string]int{}, map[string]int{"a": 3}, 0, 1},
	} {
		problems, notes := compare(tc.counts, tc.recorded)
		if len(problems) != tc.problems || len(notes) != tc.notes {
			t.Errorf("%s: problems %q, notes %q; want %d and %d", tc.name, problems, notes, tc.problems, tc.notes)
		}
	}
}

func TestListRoundTrip(t *testing.T) {
	counts := map[string]int{"jsonrpc": 30, "transport/streamhttp": 19}
	path := filepath.Join(t.TempDir(), "api.count")
	if err := os.WriteFile(path, []byte(format(counts)), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readList(path)
	if err != nil || len(got) != 2 || got["jsonrpc"] != 30 || got["transport/streamhttp"] != 19 {
		t.Errorf("readList = %v, %v", got, err)
	}
	if err := os.WriteFile(path, []byte("a 1\na 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readList(path); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a package listed twice: %v", err)
	}
}
