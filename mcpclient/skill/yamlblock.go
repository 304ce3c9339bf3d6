package skill

import "strings"

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
