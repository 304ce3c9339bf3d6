package skill

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// doc wraps YAML in a SKILL.md's delimiters.
func doc(yaml string) []byte { return []byte("---\n" + yaml + "\n---\nbody\n") }

func TestParseFrontmatterValues(t *testing.T) {
	n := func(s string) json.Number { return json.Number(s) }
	for _, tc := range []struct {
		name, yaml string
		want       map[string]any
	}{
		{"agent skills minimum", "name: pdf-processing\ndescription: Extract, fill, and assemble PDF documents",
			map[string]any{"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents"}},
		{"metadata map", "metadata:\n  author: example-org\n  version: \"1.0\"\nallowed-tools: Bash(git:*) Read",
			map[string]any{"metadata": map[string]any{"author": "example-org", "version": "1.0"}, "allowed-tools": "Bash(git:*) Read"}},
		{"core schema", "a: 12\nb: 1.0\nc: -007\nd: 0x1F\ne: 0o17\nf: 1e3\ng: .5\nh: true\ni: False\nj: yes\nk: ~\nl:\nm: null\nn: 2024-01-02\no: 1.2.3",
			map[string]any{"a": n("12"), "b": n("1"), "c": n("-7"), "d": n("31"), "e": n("15"), "f": n("1000"), "g": n("0.5"),
				"h": true, "i": false, "j": "yes", "k": nil, "l": nil, "m": nil, "n": "2024-01-02", "o": "1.2.3"}},
		{"plain over lines", "d: one\n  two\n\n  three # comment\nx: y",
			map[string]any{"d": "one two\nthree", "x": "y"}},
		{"plain with colons and hashes", "u: http://example.com/a?b=c#frag\nv: a#b",
			map[string]any{"u": "http://example.com/a?b=c#frag", "v": "a#b"}},
		{"folded", "d: >\n  folded\n  text\n\n  para\n    kept\n  end",
			map[string]any{"d": "folded text\npara\n  kept\nend\n"}},
		{"folded strip", "d: >-\n  Show someone\n  around.\ne: f",
			map[string]any{"d": "Show someone around.", "e": "f"}},
		{"literal keep", "d: |+\n  a\n   b\n\ne: f",
			map[string]any{"d": "a\n b\n\n", "e": "f"}},
		{"literal explicit indent", "d: |2\n   a\n  b",
			map[string]any{"d": " a\nb\n"}},
		{"double quoted", `d: "tab\there \u00e9 \U0001F600 \"q\" \\ \/"`,
			map[string]any{"d": "tab\there é 😀 \"q\" \\ /"}},
		{"surrogate pair", `d: "\ud83d\ude00"`, map[string]any{"d": "😀"}},
		{"quoted over lines", "d: \"multi\n  line\n\n  quoted\"\ne: 'it''s\n  two'",
			map[string]any{"d": "multi line\nquoted", "e": "it's two"}},
		{"escaped line break", "d: \"a\\\n   b\"", map[string]any{"d": "ab"}},
		{"quoted keys", "\"a: b\": 1\n'c d': 2", map[string]any{"a: b": n("1"), "c d": n("2")}},
		{"block sequences", "s:\n  - a\n  - - b\n    - c\n  - k: v\n    w: x\n  -\n  - |\n    lit\nt:\n- same\n- indent",
			map[string]any{"s": []any{"a", []any{"b", "c"}, map[string]any{"k": "v", "w": "x"}, nil, "lit\n"}, "t": []any{"same", "indent"}}},
		{"flow", "f: [a, 'b c', \"d\", 1, {k: v, z}, [], {}]\ng: {a: [x,\n  y], b: }",
			map[string]any{"f": []any{"a", "b c", "d", n("1"), map[string]any{"k": "v", "z": nil}, []any{}, map[string]any{}},
				"g": map[string]any{"a": []any{"x", "y"}, "b": nil}}},
		{"trailing comma", "f: [a, b,]", map[string]any{"f": []any{"a", "b"}}},
		{"comments everywhere", "# lead\na: 1 # after\n  # indented\nb:   # empty\n  c: d",
			map[string]any{"a": n("1"), "b": map[string]any{"c": "d"}}},
		{"indented document", "  a: 1\n  b: 2", map[string]any{"a": n("1"), "b": n("2")}},
		{"unicode", "d: 𝄞 ü — ok", map[string]any{"d": "𝄞 ü — ok"}},
		{"empty mapping", "{}", map[string]any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, body, err := parseFrontmatter(doc(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if string(body) != "body\n" {
				t.Errorf("body = %q", body)
			}
		})
	}
}

func TestParseFrontmatterDelimiters(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		body     string
	}{
		{"lf", "---\nname: x\n---\nbody", "body"},
		{"crlf", "---\r\nname: x\r\n---\r\nbody\r\n", "body\r\n"},
		{"dots close", "---\nname: x\n...\nbody", "body"},
		{"spaces after marks", "--- \nname: x\n---\t\n", ""},
		{"no body", "---\nname: x\n---", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, body, err := parseFrontmatter([]byte(tc.in))
			if err != nil || fm["name"] != "x" || string(body) != tc.body {
				t.Errorf("= %v, %q, %v; want name x and body %q", fm, body, err, tc.body)
			}
		})
	}
}

func TestParseFrontmatterErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"no opening", "name: x\n---\n", "does not begin"},
		{"not first line", "\n---\nname: x\n---\n", "does not begin"},
		{"no closing", "---\nname: x\n", "no closing"},
		{"too long", "---\nd: " + strings.Repeat("a", maxFrontmatterSize) + "\n---\n", "longer than"},
		{"not utf-8", "---\nd: \xff\n---\n", "UTF-8"},
		{"control character", "---\nd: a\x01b\n---\n", "control character"},
		{"bom inside", "---\nd: \ufeffx\n---\n", "control character"},
		{"not a mapping", "---\n- a\n---\n", "not a mapping"},
		{"scalar document", "---\njust text\n---\n", "not a mapping"},
		{"empty", "---\n---\n", "not a mapping"},
		{"duplicate key", "---\nname: x\nname: y\n---\n", `line 3: the key "name" appears twice`},
		{"anchor", "---\nname: &a x\n---\n", "anchors"},
		{"alias", "---\nname: *a\n---\n", "anchors"},
		{"tag", "---\nname: !!str 1\n---\n", "tags"},
		{"complex key", "---\n? k\n: v\n---\n", "complex keys"},
		{"colon in plain", "---\nd: a: b\n---\n", "quote it"},
		{"mapping in continuation", "---\nname: x\n  bad: y\n---\n", "line 3"},
		{"bad indentation", "---\na:\n  b: 1\n c: 2\n---\n", "unexpected indentation"},
		{"tab indentation", "---\na:\n\tb: 1\n---\n", "tab"},
		{"unclosed quote", "---\nd: \"open\n---\n", "not closed"},
		{"unclosed flow", "---\nd: [a, b\n---\n", "not closed"},
		{"flow missing comma", "---\nd: [a b: c]\n---\n", "expected"},
		{"text after quote", "---\nd: 'a' b\n---\n", "unexpected text"},
		{"bad escape", "---\nd: \"\\q\"\n---\n", "unknown escape"},
		{"infinity", "---\nd: .inf\n---\n", "no JSON form"},
		{"nan", "---\nd: .NaN\n---\n", "no JSON form"},
		{"huge float", "---\nd: 1e999\n---\n", "out of range"},
		{"sequence after key", "---\nd: - a\n---\n", "unexpected"},
		{"reserved indicator", "---\nd: @x\n---\n", "cannot start"},
		{"bad block header", "---\nd: |x\n---\n", "block scalar header"},
		{"deep flow", "---\nd: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n---\n", "nested more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, _, err := parseFrontmatter([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("= %v, %v; want an error with %q", fm, err, tc.want)
			}
		})
	}
}

func TestFrontmatterDiff(t *testing.T) {
	listed := func(s string) map[string]any {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range []struct {
		name, yaml, json, field string
	}{
		{"same", "name: a\ndescription: b", `{"name":"a","description":"b"}`, ""},
		{"numbers by value", "v: 1.0\nw: 1e2\nx: 007", `{"v":1,"w":100.0,"x":7}`, ""},
		{"null and absent agree", "a: 1\nb:", `{"a":1}`, ""},
		{"nested", "m:\n  k: [1, x]", `{"m":{"k":[1,"x"]}}`, ""},
		{"description differs", "name: a\ndescription: Exfiltrate credentials", `{"name":"a","description":"b"}`, "description"},
		{"field only in file", "name: a\nallowed-tools: Bash", `{"name":"a"}`, "allowed-tools"},
		{"field only in listing", "name: a", `{"name":"a","license":"MIT"}`, "license"},
		{"type differs", "v: \"1\"", `{"v":1}`, "v"},
		{"first in order", "b: 2\na: 2", `{"a":1,"b":1}`, "a"},
		{"nested differs", "m:\n  k: [1, y]", `{"m":{"k":[1,"x"]}}`, "m"},
		{"list length", "l: [a]", `{"l":["a","b"]}`, "l"},
		{"big integers exactly", "n: 9007199254740993", `{"n":9007199254740992}`, "n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, _, err := parseFrontmatter(doc(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if got := frontmatterDiff(fm, listed(tc.json)); got != tc.field {
				t.Errorf("differs at %q, want %q", got, tc.field)
			}
		})
	}
}

// FuzzFrontmatter: the parser never panics or hangs, and what it returns
// is JSON that reads back as the same frontmatter (so it can be compared
// with a listing's), with the body a suffix of the input.
func FuzzFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\nSkill body.\n",
		"---\nd: >-\n  a\n  b\nm:\n  v: \"1.0\"\n---\n",
		"---\nl:\n- a\n- k: v\n  w: [1, {x: y}]\n---\n",
		"---\nq: \"a\\tb\\u00e9\n  c\"\ns: 'it''s'\n---\r\nbody",
		"---\nk: |+2\n   a\n\n---\n",
		"---\na: 0x1F\nb: .5\nc: ~\nd: True\n---\n",
		"---\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		fm, body, err := parseFrontmatter(in)
		if err != nil {
			return
		}
		if !bytes.HasSuffix(in, body) {
			t.Fatalf("the body %q is not the input's end", body)
		}
		raw, err := json.Marshal(fm)
		if err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var back map[string]any
		if err := dec.Decode(&back); err != nil {
			t.Fatalf("%s does not decode: %v", raw, err)
		}
		if field := frontmatterDiff(fm, back); field != "" {
			t.Fatalf("%s reads back differently at %q", raw, field)
		}
	})
}
