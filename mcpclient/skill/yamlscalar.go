package skill

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

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
		s := p.lines[l]
		solid := b.Len() // the end of what must survive a fold
		joined := false  // the line ended in an escaped line break
		for c < len(s) {
			ch := s[c]
			switch {
			case ch == q && q == '\'' && c+1 < len(s) && s[c+1] == '\'':
				b.WriteByte('\'')
				c += 2
			case ch == q:
				return b.String(), l, c + 1, nil
			case ch == '\\' && q == '"' && c+1 == len(s):
				joined = true
				c++
			case ch == '\\' && q == '"':
				n, err := unescape(&b, s[c:])
				if err != nil {
					return "", 0, 0, p.errorf(l, "%v", err)
				}
				c += n
			default:
				b.WriteByte(ch)
				c++
			}
			if ch != ' ' && ch != '\t' {
				solid = b.Len()
			}
		}
		if !joined {
			trimmed := b.String()[:solid]
			b.Reset()
			b.WriteString(trimmed)
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
		s = p.lines[l]
		c = n
		for c < len(s) && (s[c] == ' ' || s[c] == '\t') {
			c++
		}
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
	header := p.lines[i][col:]
	folded := header[0] == '>'
	chomp, explicit := byte(0), 0
	k := 1
	for ; k < len(header) && k < 3; k++ {
		c := header[k]
		if (c == '-' || c == '+') && chomp == 0 {
			chomp = c
			continue
		}
		if '1' <= c && c <= '9' && explicit == 0 {
			explicit = int(c - '0')
			continue
		}
		break
	}
	if rest := header[k:]; !blank(rest) || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil, p.errorf(i, "a bad block scalar header %q", truncate(header, 20))
	}
	base := max(parent, 0)
	ind := -1 // the content's indentation
	if explicit > 0 {
		ind = base + explicit
	}
	var lines []string
	j := i + 1
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
		n := 0
		for n < len(line) && line[n] == ' ' {
			n++
		}
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
	trailing := 0
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
		trailing++
	}
	var text string
	if folded {
		text = fold(lines)
	} else {
		text = strings.Join(lines, "\n")
	}
	switch {
	case chomp == '+':
		if len(lines) > 0 {
			text += "\n"
		}
		text += strings.Repeat("\n", trailing)
	case chomp == 0 && len(lines) > 0:
		text += "\n"
	}
	return text, nil
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
	unsigned := s
	if s[0] == '+' || s[0] == '-' {
		unsigned = s[1:]
	}
	switch {
	case unsigned == ".inf" || unsigned == ".Inf" || unsigned == ".INF" || s == ".nan" || s == ".NaN" || s == ".NAN":
		return nil, fail("infinity and NaN have no JSON form")
	case isDigits(unsigned, 10):
		var n big.Int
		n.SetString(strings.TrimPrefix(s, "+"), 10)
		return json.Number(n.String()), nil
	case strings.HasPrefix(s, "0o") && isDigits(s[2:], 8):
		var n big.Int
		n.SetString(s[2:], 8)
		return json.Number(n.String()), nil
	case strings.HasPrefix(s, "0x") && isDigits(s[2:], 16):
		var n big.Int
		n.SetString(s[2:], 16)
		return json.Number(n.String()), nil
	case isYAMLFloat(s):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fail("a number out of range")
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	}
	return s, nil
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
