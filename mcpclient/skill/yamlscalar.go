package skill

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Scalars: plain ones, which may go on over several lines, and what a
// plain scalar means (null, a boolean, a number, a string: resolvePlain);
// quoted ones; and block scalars, literal (|) and folded (>).

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

// resolvePlain gives a plain scalar its type by YAML 1.2's core schema:
// null (empty, ~, null), a boolean (true, false; capitalized or in capitals
// too), an integer (decimal, 0o octal, 0x hexadecimal) or a float, as a
// json.Number in JSON's own form; anything else is a string. An infinity
// or NaN, which JSON cannot carry, is an error. A scalar over several lines
// (oneLine false) is always a string or null.
func resolvePlain(s string, oneLine bool, fail func(string) error) (any, error) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil, nil
	case "true", "True", "TRUE":
		return true, nil
	case "false", "False", "FALSE":
		return false, nil
	}
	if !oneLine || len(s) > maxNumberLen {
		return s, nil
	}
	return resolveNumber(s, fail)
}

// resolveNumber is resolvePlain for a one-line scalar that is not null or
// a boolean: a json.Number if it is a number, the string itself if not.
func resolveNumber(s string, fail func(string) error) (any, error) {
	unsigned := s
	if s[0] == '+' || s[0] == '-' {
		unsigned = s[1:]
	}
	switch {
	case nonFinite(s, unsigned):
		return nil, fail("infinity and NaN have no JSON form")
	case isDigits(unsigned, 10):
		return integer(strings.TrimPrefix(s, "+"), 10), nil
	case strings.HasPrefix(s, "0o") && isDigits(s[2:], 8):
		return integer(s[2:], 8), nil
	case strings.HasPrefix(s, "0x") && isDigits(s[2:], 16):
		return integer(s[2:], 16), nil
	case isYAMLFloat(s):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fail("a number out of range")
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	}
	return s, nil
}

// nonFinite reports whether s (unsigned without its sign) is the core
// schema's infinity or NaN.
func nonFinite(s, unsigned string) bool {
	switch unsigned {
	case ".inf", ".Inf", ".INF":
		return true
	}
	switch s {
	case ".nan", ".NaN", ".NAN":
		return true
	}
	return false
}

// integer is the digits of base in s as a JSON number, in decimal.
func integer(digits string, base int) json.Number {
	var n big.Int
	n.SetString(digits, base)
	return json.Number(n.String())
}

// maxNumberLen bounds the plain scalars read as numbers: a longer run of
// digits stays a string (and a listing that says otherwise disagrees).
const maxNumberLen = 1000

// isDigits reports whether s is one or more digits of base (8, 10 or 16).
func isDigits(s string, base int) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := '0' <= c && c <= '7' ||
			base >= 10 && (c == '8' || c == '9') ||
			base == 16 && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')
		if !ok {
			return false
		}
	}
	return true
}

// isYAMLFloat reports whether s matches the core schema's float:
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isYAMLFloat(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	whole, frac, hasDot := strings.Cut(mant, ".")
	switch {
	case !hasDot && !isDigits(whole, 10):
		return false
	case hasDot && whole == "" && !isDigits(frac, 10):
		return false
	case hasDot && whole != "" && (!isDigits(whole, 10) || frac != "" && !isDigits(frac, 10)):
		return false
	}
	if hasExp {
		exp = strings.TrimPrefix(strings.TrimPrefix(exp, "-"), "+")
		return isDigits(exp, 10)
	}
	return true
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

// blockScalar reads a literal (|) or folded (>) block scalar whose header
// is at column col of line i, in a collection indented by parent.
func (p *yamlParser) blockScalar(i, col, parent int) (any, error) {
	h, err := p.blockHeader(i, col)
	if err != nil {
		return nil, err
	}
	ind := -1 // the content's indentation, until the first line tells
	if h.explicit > 0 {
		ind = max(parent, 0) + h.explicit
	}
	lines, err := p.blockLines(i+1, ind, parent)
	if err != nil {
		return nil, err
	}
	return h.text(lines), nil
}

// blockHead is what a block scalar's header says: folded or literal, the
// chomping indicator (-, + or none) and an explicit indentation.
type blockHead struct {
	folded   bool
	chomp    byte
	explicit int
}

func (p *yamlParser) blockHeader(i, col int) (blockHead, error) {
	header := p.lines[i][col:]
	h := blockHead{folded: header[0] == '>'}
	k := 1
	for ; k < len(header) && k < 3; k++ {
		c := header[k]
		if (c == '-' || c == '+') && h.chomp == 0 {
			h.chomp = c
		} else if '1' <= c && c <= '9' && h.explicit == 0 {
			h.explicit = int(c - '0')
		} else {
			break
		}
	}
	if rest := header[k:]; !blank(rest) || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return h, p.errorf(i, "a bad block scalar header %q", truncate(header, 20))
	}
	return h, nil
}

// blockLines reads the scalar's lines from line j on, each without the
// content's indentation ind (-1: the first non-empty line sets it), up to
// the first line indented no more than parent; it leaves p.i there.
func (p *yamlParser) blockLines(j, ind, parent int) ([]string, error) {
	var lines []string
	for ; j < len(p.lines); j++ {
		line := p.lines[j]
		if strings.TrimLeft(line, " ") == "" {
			if ind >= 0 && len(line) > ind {
				lines = append(lines, line[ind:])
			} else {
				lines = append(lines, "")
			}
			continue
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		if ind < 0 {
			if n <= parent {
				break
			}
			if line[n] == '\t' {
				return nil, p.errorf(j, "a tab in indentation")
			}
			ind = n
		}
		if n < ind {
			break
		}
		lines = append(lines, line[ind:])
	}
	p.i = j
	return lines, nil
}

// text joins the lines, folded or not, and chomps the line breaks at the
// end as the header says: clip (one), strip (-, none) or keep (+, all).
func (h blockHead) text(lines []string) string {
	trailing := 0
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
		trailing++
	}
	text := strings.Join(lines, "\n")
	if h.folded {
		text = fold(lines)
	}
	switch {
	case h.chomp == '+':
		if len(lines) > 0 {
			text += "\n"
		}
		text += strings.Repeat("\n", trailing)
	case h.chomp == 0 && len(lines) > 0:
		text += "\n"
	}
	return text
}

// fold joins the lines of a folded block scalar: lines of text next to
// each other join with a space, an empty line between them makes a
// newline, and lines indented further keep their line breaks.
func fold(lines []string) string {
	var b strings.Builder
	breaks, first, prevSpaced := 0, true, false
	for _, l := range lines {
		if l == "" {
			breaks++
			continue
		}
		spaced := l[0] == ' ' || l[0] == '\t'
		switch {
		case first:
			b.WriteString(strings.Repeat("\n", breaks))
		case !spaced && !prevSpaced && breaks == 0:
			b.WriteByte(' ')
		case !spaced && !prevSpaced:
			b.WriteString(strings.Repeat("\n", breaks))
		default:
			b.WriteString(strings.Repeat("\n", breaks+1))
		}
		b.WriteString(l)
		breaks, first, prevSpaced = 0, false, spaced
	}
	return b.String()
}
