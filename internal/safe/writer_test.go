package safe

import (
	"encoding/json"
	"strings"
	"testing"
)

// chunked writes s to a Writer in pieces of the given sizes (the rest in
// one), flushes, and returns what came out.
func chunked(t *testing.T, newW func(*strings.Builder) *Writer, s string, sizes ...int) string {
	t.Helper()
	var out strings.Builder
	w := newW(&out)
	for _, n := range sizes {
		n = min(n, len(s))
		if k, err := w.Write([]byte(s[:n])); err != nil || k != n {
			t.Fatalf("Write: %d, %v", k, err)
		}
		s = s[n:]
	}
	w.Write([]byte(s))
	w.Flush()
	return out.String()
}

func newGo(b *strings.Builder) *Writer   { return NewWriter(b) }
func newJSON(b *strings.Builder) *Writer { return NewJSONWriter(b) }

func TestWriter(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		sizes    []int
		want     string
	}{
		{"plain", "tools:\n  add  adds\n", nil, "tools:\n  add  adds\n"},
		{"escape sequence", "a\x1b[2Jb", []int{2}, `a\x1b[2Jb`},
		{"a character split", "漢字 ok", []int{1, 1, 1, 2}, "漢字 ok"},
		{"an emoji split", "🙂!", []int{3}, "🙂!"},
		{"C1 split", "a\u009b2J", []int{2}, `a\u009b2J`},
		{"bidi split", "x\u202ey", []int{2, 1}, `x\u202ey`},
		{"invalid byte at the end", "ab\xe2", nil, `ab\xe2`},
		{"invalid byte held then text", "ab\xe2(", []int{3}, `ab\xe2(`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := chunked(t, newGo, tc.in, tc.sizes...); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// JSON written through a JSON Writer stays valid and decodes to the same
// value, with nothing a terminal acts on left in it.
func TestJSONWriterKeepsJSON(t *testing.T) {
	v := map[string]string{"text": "ok\x1b[31m red \u009b \u202eevil\u202c \x7f é 漢 🙂", "nl": "a\nb"}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := chunked(t, newJSON, string(data), 5, 7, 3)
	if firstUnsafe(got, true) >= 0 {
		t.Errorf("unsafe text left: %q", got)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil {
		t.Fatalf("not JSON any more: %v\n%s", err, got)
	}
	if back["text"] != v["text"] || back["nl"] != v["nl"] {
		t.Errorf("decoded %q, want %q", back, v)
	}
}

func FuzzWriter(f *testing.F) {
	f.Add("漢字\x1b[2J\u202e\xe2(", 1, 2)
	f.Add("plain", 0, 0)
	f.Fuzz(func(t *testing.T, s string, a, b int) {
		a, b = int(uint(a)%8), int(uint(b)%8)
		for _, tc := range []struct {
			newW func(*strings.Builder) *Writer
			st   style
		}{{newGo, goStyle}, {newJSON, jsonStyle}} {
			got := chunked(t, tc.newW, s, a, b)
			if want := escape(s, tc.st); got != want {
				t.Errorf("chunked %d,%d: got %q, want %q", a, b, got, want)
			}
			if firstUnsafe(got, true) >= 0 {
				t.Errorf("unsafe text left: %q", got)
			}
		}
	})
}
