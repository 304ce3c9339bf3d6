package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCyclomatic(t *testing.T) {
	for _, tc := range []struct {
		body string
		want int
	}{
		{"", 1},
		{"if a {}", 2},
		{"if a && b || c {}", 4},
		{"for {}; for range x {}", 3},
		{"switch x { case 1, 2: case 3: default: }", 3},
		{"select { case <-c: default: }", 2},
		{"f := func() { if a {} }; f()", 2},
	} {
		src := fmt.Sprintf("package p\nfunc f() { %s }\n", tc.body)
		fn := parse(t, src)
		if got := cyclomatic(fn); got != tc.want {
			t.Errorf("%q: got complexity %d, want %d", tc.body, got, tc.want)
		}
	}
}

func TestMeasureFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\ntype T struct{}\n\nfunc (t *T) Long() {\n")
	for i := 0; i < 70; i++ {
		b.WriteString("\tif x {\n\t}\n")
	}
	b.WriteString("}\n")
	for b.Len() > 0 && strings.Count(b.String(), "\n") < 320 {
		b.WriteString("// padding\n")
	}
	got, err := measureFile("p/p.go", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	// 320 lines is no excess: files have no length budget.
	want := []string{"func p/p.go T.Long", "complexity p/p.go T.Long"}
	var keys []string
	for _, e := range got {
		keys = append(keys, e.key())
	}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("excesses (-want +got):\n%s", diff)
	}
}

func TestCompare(t *testing.T) {
	excesses := []excess{
		{kind: kindFunc, path: "a.go", name: "F", measure: 70},
	}
	listed := map[string]int{"func b.go G": 80, "func a.go F": 65}
	got := compare(excesses, listed)
	want := []string{
		"a.go: F is 70 lines (budget 60): grew from 65, its allow-list entry; bring it down",
		"func b.go G is within its budget now: take it off the allow-list",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
