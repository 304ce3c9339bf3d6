package safe

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/internal/redact"
	"github.com/plainmcp/plainmcp/secret"
)

// Printable returns s with every character a terminal would act on made
// visible and inert, written as a Go escape: the C0 controls but newline
// and tab (so ESC, which starts every terminal sequence, and CR, which
// moves back over what was printed), DEL, the C1 controls U+0080–U+009F
// (CSI among them), the bidirectional controls that reorder what follows
// them (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), and bytes
// that are not UTF-8. "\x1b[2J" comes out as the eight characters
// \x1b[2J. Everything else, other languages and emoji included, is kept.
// A string with nothing to escape is returned as it is.
func Printable(s string) string {
	return escape(s, goStyle)
}

// Line is s as a quote on one line of at most max bytes: runs of white
// space (newlines included) become one space, then it is made
// [Printable], then cut to max bytes at a character boundary with "…"
// appended. A max of zero or less means no bound. Of a long s only the
// first 4×max bytes are read (a peer's text may be megabytes): what
// follows them shows only as the "…".
func Line(s string, max int) string {
	rest := ""
	if max > 0 && len(s) > 4*max {
		s, rest = s[:runeStartBefore(s, 4*max)], "…"
	}
	if strings.ContainsFunc(s, isSpaceToJoin) {
		s = strings.Join(strings.FieldsFunc(s, isSpaceToJoin), " ")
	}
	s = escape(s, oneLine)
	if max <= 0 || len(s) <= max {
		return s + rest
	}
	return s[:runeStartBefore(s, max)] + "…"
}

// runeStartBefore is the start of the character at s[i], or i itself if
// one starts there: the cut that keeps s[:cut] whole UTF-8.
func runeStartBefore(s string, i int) int {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// isSpaceToJoin is the white space Line joins: ASCII's and the Unicode
// line and paragraph separators.
func isSpaceToJoin(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// A style is how escape writes what it escapes.
type style struct {
	multiline bool // newlines and tabs stay
	json      bool // \u001b, valid in a JSON string, rather than Go's \x1b
}

var (
	goStyle   = style{multiline: true}
	oneLine   = style{}
	jsonStyle = style{multiline: true, json: true}
)

// escape is Printable in the given style.
func escape(s string, st style) string {
	i := firstUnsafe(s, st.multiline)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1 && st.json:
			b.WriteString(`\ufffd`)
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + hex2(s[i]))
		case !unsafeRune(r, st.multiline):
			b.WriteString(s[i : i+n])
		case r < 0x80 && !st.json:
			b.WriteString(`\x` + hex2(byte(r)))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// firstUnsafe is the index of the first byte of s to escape, or -1.
func firstUnsafe(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafeRune(rune(c), multiline) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r, multiline) {
			return i
		}
		i += n
	}
	return -1
}

// Strip returns s without the characters [Printable] escapes, newlines
// and tabs kept: for text that streams to a terminal as it comes (a
// model's answer), where an escape written out in the middle of a word
// reads worse than nothing.
func Strip(s string) string {
	if firstUnsafe(s, true) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unsafeRune(r, true) {
			return -1
		}
		return r
	}, s)
}

// unsafeRune reports whether a terminal may act on r.
func unsafeRune(r rune, multiline bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !multiline
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// Quote is text a peer sent, as an error message or a log may quote it:
// every one of secrets (what the client sent or holds, which the peer may
// echo) redacted, then on one line of at most max bytes as [Line] makes
// it; the beginning of a secret that the cut leaves at the end is
// redacted too.
func Quote(text string, max int, secrets ...secret.String) string {
	s := Line(redact.Text(text, secrets...), max)
	if s, cut := strings.CutSuffix(s, "…"); cut {
		return redact.Cut(s, secrets...) + "…"
	}
	return redact.Cut(s, secrets...)
}
