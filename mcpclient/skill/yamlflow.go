package skill

import "strings"

// Flow collections, [a, b] and {k: v}, in a block value. They may span
// lines indented more than the collection holding them; a line break is
// whitespace there. A plain scalar inside one ends at its line's end.

// flowNode parses the node at column *c of line *l and moves both past it.
func (p *yamlParser) flowNode(l, c *int, parent int) (any, error) {
	if err := p.enter(*l); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	if err := p.flowSpace(l, c, parent); err != nil {
		return nil, err
	}
	s := p.lines[*l]
	switch s[*c] {
	case '[':
		return p.flowSeq(l, c, parent)
	case '{':
		return p.flowMap(l, c, parent)
	case '"', '\'':
		v, end, endCol, err := p.quoted(*l, *c, parent)
		*l, *c = end, endCol
		return v, err
	case '&', '*', '!':
		return nil, p.errorf(*l, "anchors, aliases and tags are not supported")
	case '|', '>', '%', '@', '`', ',', ']', '}', '#':
		return nil, p.errorf(*l, "unexpected %q in a flow collection", s[*c])
	case '-', '?', ':':
		if *c+1 == len(s) || strings.IndexByte(" \t,[]{}", s[*c+1]) >= 0 {
			return nil, p.errorf(*l, "unexpected %q in a flow collection", s[*c])
		}
	}
	start := *c
	end := flowPlainEnd(s, start)
	*c = end
	return resolvePlain(strings.TrimRight(s[start:end], " \t"), true, func(msg string) error { return p.errorf(*l, "%s", msg) })
}

// flowPlainEnd returns where a plain scalar that starts at s[start] ends:
// at a flow indicator, a ':' followed by a space or one, a comment, or
// the line's end.
func flowPlainEnd(s string, start int) int {
	for k := start; k < len(s); k++ {
		switch s[k] {
		case ',', '[', ']', '{', '}':
			return k
		case ':':
			if k+1 == len(s) || strings.IndexByte(" \t,[]{}", s[k+1]) >= 0 {
				return k
			}
		case '#':
			if s[k-1] == ' ' || s[k-1] == '\t' {
				return k
			}
		}
	}
	return len(s)
}

// flowSpace moves past whitespace, comments and line breaks to the next
// character of a flow collection.
func (p *yamlParser) flowSpace(l, c *int, parent int) error {
	for {
		s := p.lines[*l]
		for *c < len(s) && (s[*c] == ' ' || s[*c] == '\t') {
			*c++
		}
		if *c < len(s) && (s[*c] != '#' || *c > 0 && s[*c-1] != ' ' && s[*c-1] != '\t') {
			return nil
		}
		*l++
		*c = 0
		if *l == len(p.lines) {
			return p.errorf(*l-1, "a flow collection is not closed")
		}
		if !blank(p.lines[*l]) {
			n, err := p.indent(*l)
			if err != nil {
				return err
			}
			if n <= parent {
				return p.errorf(*l, "a flow collection's next line must be indented")
			}
		}
	}
}

// flowSeq parses [a, b, …] from its '['.
func (p *yamlParser) flowSeq(l, c *int, parent int) (any, error) {
	out := []any{}
	*c++
	for {
		if err := p.flowSpace(l, c, parent); err != nil {
			return nil, err
		}
		if p.lines[*l][*c] == ']' {
			*c++
			return out, nil
		}
		v, err := p.flowNode(l, c, parent)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if done, err := p.flowNext(l, c, parent, ']'); done || err != nil {
			return out, err
		}
	}
}

// flowMap parses {k: v, …} from its '{'. A key without a value maps to
// null.
func (p *yamlParser) flowMap(l, c *int, parent int) (any, error) {
	m := map[string]any{}
	*c++
	for {
		if err := p.flowSpace(l, c, parent); err != nil {
			return nil, err
		}
		if p.lines[*l][*c] == '}' {
			*c++
			return m, nil
		}
		key, err := p.flowKey(l, c, parent, m)
		if err != nil {
			return nil, err
		}
		v, err := p.flowValue(l, c, parent)
		if err != nil {
			return nil, err
		}
		m[key] = v
		if done, err := p.flowNext(l, c, parent, '}'); done || err != nil {
			return m, err
		}
	}
}

// flowKey parses the key of a flow mapping's entry, which must be a
// scalar that m does not have yet.
func (p *yamlParser) flowKey(l, c *int, parent int, m map[string]any) (string, error) {
	line := *l
	k, err := p.flowNode(l, c, parent)
	if err != nil {
		return "", err
	}
	key, ok := k.(string)
	if !ok {
		key, ok = scalarText(k)
	}
	if !ok {
		return "", p.errorf(line, "a key must be a scalar")
	}
	if _, dup := m[key]; dup {
		return "", p.errorf(line, "the key %q appears twice", truncate(key, 40))
	}
	return key, nil
}

// flowValue parses what follows a flow mapping's key: ": value", or
// nothing (null).
func (p *yamlParser) flowValue(l, c *int, parent int) (any, error) {
	if err := p.flowSpace(l, c, parent); err != nil {
		return nil, err
	}
	if p.lines[*l][*c] != ':' {
		return nil, nil
	}
	*c++
	if err := p.flowSpace(l, c, parent); err != nil {
		return nil, err
	}
	if ch := p.lines[*l][*c]; ch == ',' || ch == '}' {
		return nil, nil
	}
	return p.flowNode(l, c, parent)
}

// flowNext moves past the ',' after an entry, or the closing bracket, which
// ends the collection (done).
func (p *yamlParser) flowNext(l, c *int, parent int, closing byte) (done bool, err error) {
	if err := p.flowSpace(l, c, parent); err != nil {
		return false, err
	}
	switch p.lines[*l][*c] {
	case ',':
		*c++
		return false, nil
	case closing:
		*c++
		return true, nil
	}
	return false, p.errorf(*l, "expected ',' or %q", closing)
}

// scalarText is the text a key that resolved to a non-string scalar was
// written as, as JSON would name it.
func scalarText(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "null", true
	case bool:
		if v {
			return "true", true
		}
		return "false", true
	case interface{ String() string }:
		return v.String(), true
	}
	return "", false
}
