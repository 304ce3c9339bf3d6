package safe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/secret"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "plain text, ünïcödé, 漢字, 🙂", "plain text, ünïcödé, 漢字, 🙂"},
		{"lines and tabs stay", "a\n\tb\n", "a\n\tb\n"},
		{"clear screen", "before\x1b[2Jafter", `before\x1b[2Jafter`},
		{"OSC 8 link", "\x1b]8;;https://evil\x07click\x1b]8;;\x07", `\x1b]8;;https://evil\x07click\x1b]8;;\x07`},
		{"title", "\x1b]0;owned\x1b\\", `\x1b]0;owned\x1b\`},
		{"carriage return", "ok\rFAIL", `ok\x0dFAIL`},
		{"backspace and bell", "a\bb\a", `a\x08b\x07`},
		{"DEL", "a\x7f", `a\x7f`},
		{"C1 CSI", "a\u009b2Jb", `a\u009b2Jb`},
		{"NEL", "a\u0085b", `a\u0085b`},
		{"bidi override", "file\u202egnp.exe", `file\u202egnp.exe`},
		{"bidi isolates", "\u2066x\u2069\u200e\u200f\u061c", `\u2066x\u2069\u200e\u200f\u061c`},
		{"invalid UTF-8", "a\xffb\xc3", `a\xffb\xc3`},
		{"NUL", "a\x00b", `a\x00b`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Printable(tc.in); got != tc.want {
				t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"a\n  b\r\n\tc", 0, "a b c"},
		{"  lead and trail  ", 0, "lead and trail"},
		{"esc\x1b[31mred", 0, `esc\x1b[31mred`},
		{"abcdefghij", 5, "abcde…"},
		{"ab漢字", 4, "ab…"},
		{"ab\x1bcd", 5, `ab\x1…`},
		{"short", 10, "short"},
	} {
		if got := Line(tc.in, tc.max); got != tc.want {
			t.Errorf("Line(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// An unchanged string is not copied.
func TestPrintableNoAllocation(t *testing.T) {
	s := strings.Repeat("plain text ünïcödé\n", 100)
	if n := testing.AllocsPerRun(100, func() { Printable(s) }); n != 0 {
		t.Errorf("%v allocations for text with nothing to escape", n)
	}
}

func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[2J", "a\rb", "\u202e", "\xff\xfe", "\u009b", "x\ny\tz", "é"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		p := Printable(s)
		checkSafe(t, p, true)
		if !utf8.ValidString(p) {
			t.Errorf("Printable(%q) = %q is not UTF-8", s, p)
		}
		if firstUnsafe(s, true) < 0 && p != s {
			t.Errorf("Printable(%q) changed safe text to %q", s, p)
		}
		max = max % 1000
		l := Line(s, max)
		checkSafe(t, l, false)
		if max > 0 && len(l) > max+len("…") {
			t.Errorf("Line(%q, %d) is %d bytes", s, max, len(l))
		}
		if !utf8.ValidString(l) {
			t.Errorf("Line(%q) = %q is not UTF-8", s, l)
		}
	})
}

func checkSafe(t *testing.T, s string, multiline bool) {
	t.Helper()
	for _, r := range s {
		if unsafeRune(r, multiline) {
			t.Fatalf("%q holds %U", s, r)
		}
		if !multiline && (r == '\n' || r == '\r') {
			t.Fatalf("a line holds a line break: %q", s)
		}
	}
}

func TestQuote(t *testing.T) {
	code, verifier := secret.New("code-PLANTED-123"), secret.New("verifier-PLANTED-456")
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{`{"error":"invalid_grant","error_description":"code=code-PLANTED-123&code_verifier=verifier-PLANTED-456"}`, 0,
			`{"error":"invalid_grant","error_description":"code=[redacted]&code_verifier=[redacted]"}`},
		{"echo: code-PLANTED-123\n\x1b[2J", 0, `echo: [redacted] \x1b[2J`},
		{"echo: verifier-PLANTED-456", 16, "echo: [redacted]"},
		{"echo: code-PLANTED-123 and more", 12, "echo: [redac…"},
		{"read short: verifier-PLA", 0, "read short: [redacted]"},
	} {
		got := Quote(tc.in, tc.max, code, verifier)
		if got != tc.want {
			t.Errorf("Quote(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		if strings.Contains(got, "PLANTED") {
			t.Errorf("Quote(%q) shows a secret: %q", tc.in, got)
		}
	}
}
