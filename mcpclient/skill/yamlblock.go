package skill

import "strings"

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
