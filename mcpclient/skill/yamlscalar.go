package skill

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Scalars in a block: plain ones, which may go on over several lines, and
// quoted ones. Block scalars (| and >) are in yamlblock.go; what a plain
// scalar means (null, a boolean, a number, a string) is in yamlresolve.go.

// parseInline parses the scalar or flow collection that starts at column
// col of line i, inside a collection indented by parent, and moves p.i
// past it.
func (p *yamlParser) parseInline(i, col, parent int) (any, error) {
	c := p.lines[i][col:]
	switch c[0] {
	case '|', '>':
		return p.blockScalar(i, col, parent)
	case '"', '\'':
		v, end, endCol, err := p.quoted(i, col, parent)
		if err != nil {
			return nil, err
		}
		return v, p.endOfNode(end, endCol)
	case '[', '{':
		l, c := i, col
		v, err := p.flowNode(&l, &c, parent)
		if err != nil {
			return nil, err
		}
		return v, p.endOfNode(l, c)
	case '&', '*', '!':
		return nil, p.errorf(i, "anchors, aliases and tags are not supported")
	case '%', '@', '`', ']', '}', ',':
		return nil, p.errorf(i, "a value cannot start with %q", c[0])
	case '-', '?', ':':
		if len(c) == 1 || c[1] == ' ' || c[1] == '\t' {
			return nil, p.errorf(i, "unexpected %q", c[0])
		}
	}
	return p.plain(i, col, parent)
}

// endOfNode checks that nothing but a comment follows a node that ended at
// column col of line l, and moves p.i to the next line.
func (p *yamlParser) endOfNode(l, col int) error {
	rest := p.lines[l][col:]
	t := strings.TrimLeft(rest, " \t")
	if t != "" && (t[0] != '#' || len(t) == len(rest)) {
		return p.errorf(l, "unexpected text after a value: %q", truncate(t, 20))
	}
	p.i = l + 1
	return nil
}

// plain parses a plain scalar that starts at column col of line i and may
// go on over lines indented more than parent.
func (p *yamlParser) plain(i, col, parent int) (any, error) {
	text, commented := plainLine(p.lines[i][col:])
	if err := p.checkPlain(i, text); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(text)
	last := i
	for j, breaks := i+1, 0; !commented && j < len(p.lines); j++ {
		line := p.lines[j]
		t := strings.TrimLeft(line, " \t")
		if t == "" {
			breaks++
			continue
		}
		n, err := p.indent(j)
		if err != nil {
			return nil, err
		}
		if n <= parent || t[0] == '#' {
			break
		}
		text, commented = plainLine(t)
		if err := p.checkPlain(j, text); err != nil {
			return nil, err
		}
		if breaks == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(strings.Repeat("\n", breaks))
		}
		b.WriteString(text)
		last, breaks = j, 0
	}
	p.i = last + 1
	return resolvePlain(b.String(), last == i, func(msg string) error { return p.errorf(i, "%s", msg) })
}

// plainLine returns the text of one line of a plain scalar, without a
// trailing comment or whitespace, and whether a comment ended it.
func plainLine(s string) (string, bool) {
	for k := 1; k < len(s); k++ {
		if s[k] == '#' && (s[k-1] == ' ' || s[k-1] == '\t') {
			return strings.TrimRight(s[:k], " \t"), true
		}
	}
	return strings.TrimRight(s, " \t"), false
}

// checkPlain refuses a line of a plain scalar that YAML would read as a
// mapping entry: ": " inside a value needs quotes.
func (p *yamlParser) checkPlain(i int, text string) error {
	if strings.Contains(text, ": ") || strings.Contains(text, ":\t") || strings.HasSuffix(text, ":") {
		return p.errorf(i, "a plain value cannot hold \": \"; quote it")
	}
	return nil
}

// quoted reads a single- or double-quoted scalar that starts at column col
// of line i. Its continuation lines must be indented more than parent. It
// returns the value and the line and column just past the closing quote.
//
// A line break inside the quotes folds as in YAML: one break becomes a
// space, each further (empty) line a newline, and the whitespace around
// the break goes; in double quotes a '\' at the end of a line joins the
// lines with nothing between them.
func (p *yamlParser) quoted(i, col, parent int) (string, int, int, error) {
	q := p.lines[i][col]
	var b strings.Builder
	l, c := i, col+1
	for {
		end, closed, joined, err := scanQuoted(&b, p.lines[l], c, q)
		if err != nil {
			return "", 0, 0, p.errorf(l, "%v", err)
		}
		if closed {
			return b.String(), l, end, nil
		}
		breaks := 0
		for l++; l < len(p.lines) && strings.TrimLeft(p.lines[l], " \t") == ""; l++ {
			breaks++
		}
		if l == len(p.lines) {
			return "", 0, 0, p.errorf(i, "a quoted value is not closed")
		}
		n, err := p.indent(l)
		if err != nil {
			return "", 0, 0, err
		}
		if n <= parent {
			return "", 0, 0, p.errorf(l, "a quoted value's next line must be indented")
		}
		c = n + len(p.lines[l][n:]) - len(strings.TrimLeft(p.lines[l][n:], " \t"))
		switch {
		case joined:
			b.WriteString(strings.Repeat("\n", breaks))
		case breaks == 0:
			b.WriteByte(' ')
		default:
			b.WriteString(strings.Repeat("\n", breaks))
		}
	}
}

// scanQuoted writes the quoted value's characters on line s from column c
// to b. closed says the closing quote q was found, and end is the column
// after it. Otherwise the line ran out: joined says it ended in an escaped
// line break (double quotes), and if not, the whitespace before the break
// is dropped from b, as folding asks.
func scanQuoted(b *strings.Builder, s string, c int, q byte) (end int, closed, joined bool, err error) {
	solid := b.Len() // the end of what must survive a fold
	for c < len(s) {
		ch := s[c]
		switch {
		case ch == q && q == '\'' && c+1 < len(s) && s[c+1] == '\'':
			b.WriteByte('\'')
			c += 2
		case ch == q:
			return c + 1, true, false, nil
		case ch == '\\' && q == '"' && c+1 == len(s):
			joined = true
			c++
		case ch == '\\' && q == '"':
			n, err := unescape(b, s[c:])
			if err != nil {
				return 0, false, false, err
			}
			c += n
		default:
			b.WriteByte(ch)
			c++
		}
		if strings.IndexByte(" \t", ch) < 0 {
			solid = b.Len()
		}
	}
	if !joined {
		trimmed := b.String()[:solid]
		b.Reset()
		b.WriteString(trimmed)
	}
	return c, false, joined, nil
}

// unescape writes the character of the escape sequence at the start of s
// (a '\' and what follows) to b and returns the length of the sequence.
func unescape(b *strings.Builder, s string) (int, error) {
	if len(s) < 2 {
		return 0, errorString("a '\\' at the end of the text")
	}
	if r, ok := simpleEscapes[s[1]]; ok {
		b.WriteString(r)
		return 2, nil
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[1]]
	if digits == 0 {
		return 0, errorString("unknown escape \\" + string(s[1]))
	}
	if len(s) < 2+digits {
		return 0, errorString("a short \\" + string(s[1]) + " escape")
	}
	v, err := strconv.ParseUint(s[2:2+digits], 16, 32)
	if err != nil {
		return 0, errorString("a bad \\" + string(s[1]) + " escape")
	}
	n := 2 + digits
	r := rune(v)
	if 0xD800 <= r && r < 0xDC00 && len(s) >= n+6 && s[n:n+2] == `\u` {
		// A UTF-16 surrogate pair, as JSON writes characters beyond the BMP.
		if lo, err := strconv.ParseUint(s[n+2:n+6], 16, 32); err == nil && 0xDC00 <= lo && lo < 0xE000 {
			r = 0x10000 + (r-0xD800)<<10 + rune(lo) - 0xDC00
			n += 6
		}
	}
	if !utf8.ValidRune(r) {
		return 0, errorString("an escape that is not a character")
	}
	b.WriteRune(r)
	return n, nil
}

// simpleEscapes are YAML's one-character escapes, by the character after
// the '\\'.
var simpleEscapes = map[byte]string{
	'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\v", 'f': "\f",
	'r': "\r", 'e': "\x1b", ' ': " ", '"': "\"", '/': "/", '\\': "\\",
	'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029",
}

type errorString string

func (e errorString) Error() string { return string(e) }
