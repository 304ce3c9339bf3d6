package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"npx -y @modelcontextprotocol/server-everything", []string{"npx", "-y", "@modelcontextprotocol/server-everything"}, false},
		{"  a   b\tc ", []string{"a", "b", "c"}, false},
		{`cmd 'two words' "and \"more\"" back\ slash`, []string{"cmd", "two words", `and "more"`, "back slash"}, false},
		{`a'b'"c"d`, []string{"abcd"}, false},
		{`''`, []string{""}, false},
		{`"$HOME"`, []string{"$HOME"}, false}, // no expansion: it is not a shell
		{`'unterminated`, nil, true},
		{`"unterminated`, nil, true},
		{`trailing\`, nil, true},
		{``, nil, false},
	} {
		got, err := splitWords(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("splitWords(%q) error = %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("splitWords(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{`a 'b c' "d\"e" f\ g`, `'`, `"\`, "x\ty"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitWords(s)
		if err != nil {
			return
		}
		for _, w := range words {
			if len(w) > len(s) {
				t.Fatalf("word %q longer than input %q", w, s)
			}
		}
	})
}
