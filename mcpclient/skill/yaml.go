package skill

import (
	"fmt"
	"strings"
)

// The YAML that skill frontmatter is written in, and no more: block
// mappings and sequences (a sequence may sit at its key's indentation, and
// an entry may open a mapping on its own line, "- key: value"); plain,
// single-quoted and double-quoted scalars, over several lines too; literal
// (|) and folded (>) block scalars with their chomping and indentation
// indicators; flow sequences and mappings ([a, b], {k: v}), which may span
// lines; comments. Plain scalars resolve by YAML 1.2's core schema (see
// resolvePlain). Anchors, aliases, tags, directives, complex keys and
// duplicate keys are refused, as is anything JSON cannot hold: the SEP
// carries the frontmatter as a JSON object, and that object is what a
// SKILL.md is checked against.
//
// The parser works on lines. Indentation is counted in spaces, as YAML
// requires; a tab in a line's indentation is an error.

// maxYAMLDepth bounds the nesting of collections.
const maxYAMLDepth = 64

type yamlParser struct {
	lines []string // the frontmatter, one line each, without line breaks
	first int      // the file's line number of lines[0], for errors
	i     int      // the next line to read
	depth int
}

func (p *yamlParser) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", p.first+line, fmt.Sprintf(format, args...))
}

// parseDocument parses every line into one node.
func (p *yamlParser) parseDocument() (any, error) {
	i := p.skipBlank()
	if i == len(p.lines) {
		return nil, nil
	}
	n, err := p.indent(i)
	if err != nil {
		return nil, err
	}
	v, err := p.parseBlock(n, -1)
	if err != nil {
		return nil, err
	}
	if i := p.skipBlank(); i < len(p.lines) {
		return nil, p.errorf(i, "unexpected indentation")
	}
	return v, nil
}

// blank reports whether a line holds nothing but whitespace and a comment.
func blank(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return t == "" || t[0] == '#'
}

// skipBlank moves p.i past blank lines and returns it.
func (p *yamlParser) skipBlank() int {
	for p.i < len(p.lines) && blank(p.lines[p.i]) {
		p.i++
	}
	return p.i
}

// indent returns the indentation of a line that is not blank.
func (p *yamlParser) indent(i int) (int, error) {
	line := p.lines[i]
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	if n < len(line) && line[n] == '\t' {
		return 0, p.errorf(i, "a tab in indentation")
	}
	return n, nil
}

// isSeqEntry reports whether c, a line's content, starts a sequence entry.
func isSeqEntry(c string) bool {
	return c == "-" || strings.HasPrefix(c, "- ") || strings.HasPrefix(c, "-\t")
}

func (p *yamlParser) enter(line int) error {
	p.depth++
	if p.depth > maxYAMLDepth {
		return p.errorf(line, "nested more than %d deep", maxYAMLDepth)
	}
	return nil
}

// parseBlock parses the node that starts at line p.i, indented by ind
// (more than its parent, indented by parent).
func (p *yamlParser) parseBlock(ind, parent int) (any, error) {
	i := p.i
	if err := p.enter(i); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	c := p.lines[i][ind:]
	if isSeqEntry(c) {
		return p.parseSeq(ind)
	}
	if _, _, ok, err := p.splitKey(i, ind); err != nil {
		return nil, err
	} else if ok {
		return p.parseMap(ind)
	}
	return p.parseInline(i, ind, parent)
}

// parseMap parses the entries of a block mapping indented by ind.
func (p *yamlParser) parseMap(ind int) (any, error) {
	m := map[string]any{}
	for {
		i := p.skipBlank()
		if i == len(p.lines) {
			return m, nil
		}
		n, err := p.indent(i)
		if err != nil {
			return nil, err
		}
		if n < ind {
			return m, nil
		}
		if n > ind {
			return nil, p.errorf(i, "unexpected indentation")
		}
		key, col, ok, err := p.splitKey(i, ind)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, p.errorf(i, "expected a key and ':'")
		}
		if _, dup := m[key]; dup {
			return nil, p.errorf(i, "the key %q appears twice", truncate(key, 40))
		}
		v, err := p.parseValue(i, col, ind)
		if err != nil {
			return nil, err
		}
		m[key] = v
	}
}

// splitKey reads the key of a mapping entry that starts at column col of
// line i. It returns the key and the column just past its ':', or false
// when the line is not a mapping entry.
func (p *yamlParser) splitKey(i, col int) (string, int, bool, error) {
	c := p.lines[i][col:]
	switch c[0] {
	case '"', '\'':
		return p.quotedKey(i, col)
	case '[', '{', '|', '>', '#':
		return "", 0, false, nil
	case '&', '*', '!':
		return "", 0, false, p.errorf(i, "anchors, aliases and tags are not supported")
	case '?':
		if len(c) == 1 || c[1] == ' ' || c[1] == '\t' {
			return "", 0, false, p.errorf(i, "complex keys are not supported")
		}
	}
	return p.plainKey(i, col)
}

// plainKey is splitKey for a key without quotes: what comes before the
// first ':' followed by a space, a tab or the end of the line.
func (p *yamlParser) plainKey(i, col int) (string, int, bool, error) {
	c := p.lines[i][col:]
	for k := 0; k < len(c); k++ {
		switch {
		case c[k] == '#' && k > 0 && (c[k-1] == ' ' || c[k-1] == '\t'):
			return "", 0, false, nil // a comment before any ':'
		case c[k] == ':' && (k+1 == len(c) || c[k+1] == ' ' || c[k+1] == '\t'):
			key := strings.TrimRight(c[:k], " \t")
			if key == "" {
				return "", 0, false, p.errorf(i, "an empty key")
			}
			return key, col + k + 1, true, nil
		}
	}
	return "", 0, false, nil
}

// quotedKey is splitKey for a key in quotes.
func (p *yamlParser) quotedKey(i, col int) (string, int, bool, error) {
	line := p.lines[i]
	key, end, endCol, err := p.quoted(i, col, -1)
	if err != nil || end != i {
		return "", 0, false, nil // not a one-line quoted key: a value, as parseInline will tell
	}
	rest := strings.TrimLeft(line[endCol:], " \t")
	if !strings.HasPrefix(rest, ":") || !(len(rest) == 1 || rest[1] == ' ' || rest[1] == '\t') {
		return "", 0, false, nil
	}
	return key, len(line) - len(rest) + 1, true, nil
}

// parseValue parses the value of a mapping entry whose ':' ends at column
// col of line i; the mapping is indented by ind.
func (p *yamlParser) parseValue(i, col, ind int) (any, error) {
	line := p.lines[i]
	for col < len(line) && (line[col] == ' ' || line[col] == '\t') {
		col++
	}
	if col < len(line) && line[col] != '#' {
		return p.parseInline(i, col, ind)
	}
	// Nothing after the ':': the value is on the lines below, or null.
	p.i = i + 1
	j := p.skipBlank()
	if j == len(p.lines) {
		return nil, nil
	}
	n, err := p.indent(j)
	if err != nil {
		return nil, err
	}
	if n > ind || n == ind && isSeqEntry(p.lines[j][n:]) {
		return p.parseBlock(n, ind)
	}
	return nil, nil
}

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

// parseSeq parses the entries of a block sequence indented by ind.
func (p *yamlParser) parseSeq(ind int) (any, error) {
	out := []any{}
	for {
		i := p.skipBlank()
		if i == len(p.lines) {
			return out, nil
		}
		n, err := p.indent(i)
		if err != nil {
			return nil, err
		}
		if n < ind || n == ind && !isSeqEntry(p.lines[i][n:]) {
			return out, nil
		}
		if n > ind {
			return nil, p.errorf(i, "unexpected indentation")
		}
		v, err := p.seqEntry(i, ind)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// seqEntry parses the node of the entry ("- …") on line i of a block
// sequence indented by ind.
func (p *yamlParser) seqEntry(i, ind int) (any, error) {
	line := p.lines[i]
	col := ind + 1
	for col < len(line) && (line[col] == ' ' || line[col] == '\t') {
		col++
	}
	if col < len(line) && line[col] != '#' {
		// The entry's node starts mid-line ("- key: v", "- - x"): it is
		// parsed as if the line were indented to where it starts.
		if strings.Contains(line[ind+1:col], "\t") {
			return nil, p.errorf(i, "a tab in indentation")
		}
		p.lines[i] = strings.Repeat(" ", col) + line[col:]
		p.i = i
		return p.parseBlock(col, ind)
	}
	// Nothing after the '-': the node is on the lines below, or null.
	p.i = i + 1
	j := p.skipBlank()
	if j == len(p.lines) {
		return nil, nil
	}
	m, err := p.indent(j)
	if err != nil || m <= ind {
		return nil, err
	}
	return p.parseBlock(m, ind)
}
