package skill

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxFrontmatterSize bounds the frontmatter parseFrontmatter reads: the
// bytes from the opening "---" line through the closing one.
const maxFrontmatterSize = 64 << 10

// parseFrontmatter reads the YAML frontmatter at the head of a SKILL.md
// (Agent Skills, https://agentskills.io/specification): a "---" line, YAML,
// and a closing "---" (or "...") line. It returns the frontmatter as JSON
// values — strings, bools, nil, json.Number, []any and map[string]any —
// and the body after the closing line.
//
// It reads the YAML skill authors write, not all of YAML: block and flow
// mappings and sequences, plain, quoted and block scalars, comments, with
// plain scalars typed by YAML 1.2's core schema ("1.0" a number, "yes" a
// string, no timestamps). Anchors, aliases, tags, complex keys, duplicate
// keys and values JSON cannot hold (infinity, NaN) are errors, as is a
// document that is not valid UTF-8, holds control characters, is nested
// more than 64 deep, or whose frontmatter exceeds maxFrontmatterSize. The
// frontmatter must be a mapping. Line breaks may be "\n" or "\r\n".
//
// It is safe for concurrent use.
func parseFrontmatter(doc []byte) (map[string]any, []byte, error) {
	text, body, err := splitFrontmatter(doc)
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
		if strings.ContainsFunc(lines[i], isControl) {
			return nil, nil, fmt.Errorf("frontmatter line %d: a control character", i+2)
		}
	}
	p := &yamlParser{lines: lines, first: 2}
	v, err := p.parseDocument()
	if err != nil {
		return nil, nil, fmt.Errorf("frontmatter %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil, errors.New("frontmatter: not a mapping of fields")
	}
	return m, body, nil
}

// isControl reports the characters YAML does not allow in a document:
// C0 controls but the tab, DEL, C1 controls but NEL, and the BOM.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' || r == 0x7f || 0x80 <= r && r <= 0x9f && r != 0x85 || r == 0xfeff
}

// splitFrontmatter returns the text between the frontmatter's delimiter
// lines, without the final line break, and the body after them.
func splitFrontmatter(doc []byte) (string, []byte, error) {
	first, rest, ok := cutLine(doc)
	if !ok || !isDelimiter(first, "---") {
		return "", nil, errors.New("frontmatter: the file does not begin with a --- line")
	}
	start := len(doc) - len(rest)
	for off := start; ; {
		line, next, ok := cutLine(doc[off:])
		if off+len(line)-start > maxFrontmatterSize {
			return "", nil, fmt.Errorf("frontmatter: longer than %d bytes", maxFrontmatterSize)
		}
		if isDelimiter(line, "---") || isDelimiter(line, "...") {
			text := doc[start:off]
			if !utf8.Valid(text) {
				return "", nil, errors.New("frontmatter: not valid UTF-8")
			}
			return strings.TrimSuffix(string(text), "\n"), next, nil
		}
		if !ok {
			return "", nil, errors.New("frontmatter: no closing --- line")
		}
		off = len(doc) - len(next)
	}
}

// cutLine splits off the first line of b, without its line break; ok is
// false when b has no line break.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	line, rest, ok = bytes.Cut(b, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest, ok
}

// isDelimiter reports whether line is mark, then nothing but spaces and tabs.
func isDelimiter(line []byte, mark string) bool {
	rest, ok := bytes.CutPrefix(line, []byte(mark))
	return ok && len(bytes.Trim(rest, " \t")) == 0
}

// frontmatterDiff compares a SKILL.md's frontmatter, as parseFrontmatter
// read it, with a listing's frontmatter object field by field, and returns
// the first field (in byte order of the names) whose values differ, or ""
// when they agree. A field that is absent on one side and null on the
// other agrees; numbers compare by value (1.0 is 1).
func frontmatterDiff(parsed map[string]any, listed map[string]any) string {
	keys := make([]string, 0, len(parsed)+len(listed))
	for k := range parsed {
		keys = append(keys, k)
	}
	for k := range listed {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		if !sameValue(parsed[k], listed[k]) {
			return k
		}
	}
	return ""
}

// sameValue compares two JSON values as decoded with json.Number.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool, string:
		return a == b
	case json.Number:
		b, ok := b.(json.Number)
		return ok && sameNumber(a, b)
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, sameValue)
	case map[string]any:
		b, ok := b.(map[string]any)
		return ok && frontmatterDiff(a, b) == ""
	}
	return false
}

// sameNumber compares two JSON numbers by value: integers exactly, other
// numbers as float64s.
func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	isInt := func(n json.Number) bool { return !strings.ContainsAny(string(n), ".eE") }
	if isInt(a) && isInt(b) && len(a) <= maxNumberLen && len(b) <= maxNumberLen {
		var x, y big.Int
		_, okx := x.SetString(string(a), 10)
		_, oky := y.SetString(string(b), 10)
		return okx && oky && x.Cmp(&y) == 0
	}
	x, errx := strconv.ParseFloat(string(a), 64)
	y, erry := strconv.ParseFloat(string(b), 64)
	return errx == nil && erry == nil && x == y
}
