package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// A Baseline is the list of scenarios that are known not to pass yet: one
// "suite/scenario" per line, each with a "# reason" comment. Lines holding
// only a comment are kept as the file's header when it is rewritten.
type Baseline struct {
	Header []string          // the comment lines before the first entry
	IDs    []string          // the entries, in file order
	Reason map[string]string // entry → its comment
}

// readBaseline reads the baseline file; none is named by "".
func readBaseline(path string) (*Baseline, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := parseBaseline(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// parseBaseline reads a baseline file.
func parseBaseline(r io.Reader) (*Baseline, error) {
	b := &Baseline{Reason: map[string]string{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		entry, comment, _ := strings.Cut(line, "#")
		entry, comment = strings.TrimSpace(entry), strings.TrimSpace(comment)
		if entry == "" {
			if len(b.IDs) == 0 {
				b.Header = append(b.Header, line)
			}
			continue
		}
		if strings.ContainsAny(entry, " \t") || !strings.Contains(entry, "/") {
			return nil, fmt.Errorf("line %d: %q is not one suite/scenario", n, entry)
		}
		if _, dup := b.Reason[entry]; dup {
			return nil, fmt.Errorf("line %d: %s is listed twice", n, entry)
		}
		b.IDs = append(b.IDs, entry)
		b.Reason[entry] = comment
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for len(b.Header) > 0 && b.Header[len(b.Header)-1] == "" {
		b.Header = b.Header[:len(b.Header)-1]
	}
	return b, nil
}

// Has reports whether the baseline lists a row id.
func (b *Baseline) Has(id string) bool {
	_, ok := b.Reason[id]
	return ok
}

// A Comparison is how a run differs from the baseline.
type Comparison struct {
	Regressions []string // failed, and not listed
	Stale       []string // passed, yet listed
	Unknown     []string // listed, but no scenario of the suites (full runs only)
}

// OK reports whether the run matches the baseline.
func (c Comparison) OK() bool {
	return len(c.Regressions)+len(c.Stale)+len(c.Unknown) == 0
}

// compare judges results against the baseline. Only the rows that ran count;
// entries naming no known row are reported when known is the whole list of
// rows (a run without filters), since a filtered run cannot tell.
func compare(results []Result, b *Baseline, known []Row, full bool) Comparison {
	var c Comparison
	for _, r := range results {
		switch listed := b.Has(r.ID()); {
		case !r.Pass && !listed:
			c.Regressions = append(c.Regressions, r.ID())
		case r.Pass && listed:
			c.Stale = append(c.Stale, r.ID())
		}
	}
	if full {
		ids := map[string]bool{}
		for _, row := range known {
			ids[row.ID()] = true
		}
		for _, id := range b.IDs {
			if !ids[id] {
				c.Unknown = append(c.Unknown, id)
			}
		}
	}
	return c
}

// printComparison says how the run differs from the baseline.
func printComparison(c Comparison, path string) {
	if c.OK() {
		fmt.Printf("baseline %s: matches\n", path)
		return
	}
	for _, id := range c.Regressions {
		fmt.Printf("REGRESSION  %s fails and is not in %s\n", id, path)
	}
	for _, id := range c.Stale {
		fmt.Printf("STALE       %s passes: remove it from %s\n", id, path)
	}
	for _, id := range c.Unknown {
		fmt.Printf("UNKNOWN     %s in %s names no scenario of the installed suites\n", id, path)
	}
}

// update returns the baseline that this run's results call for: rows that
// ran are listed if and only if they failed (a new entry's comment is its
// failure reason); rows that did not run keep their entries. Entries naming
// no known row are dropped after a full run. Entries follow the row order.
func (b *Baseline) update(results []Result, known []Row, full bool) *Baseline {
	ran := map[string]Result{}
	for _, r := range results {
		ran[r.ID()] = r
	}
	out := &Baseline{Header: b.Header, Reason: map[string]string{}}
	add := func(id, reason string) {
		if _, dup := out.Reason[id]; !dup {
			out.IDs = append(out.IDs, id)
			out.Reason[id] = strings.Join(strings.Fields(reason), " ") // one line
		}
	}
	isKnown := map[string]bool{}
	for _, row := range known {
		id := row.ID()
		isKnown[id] = true
		r, didRun := ran[id]
		switch {
		case didRun && !r.Pass && b.Has(id):
			add(id, b.Reason[id])
		case didRun && !r.Pass:
			add(id, r.Reason)
		case !didRun && b.Has(id):
			add(id, b.Reason[id])
		}
	}
	for _, id := range b.IDs {
		if !isKnown[id] && !full {
			add(id, b.Reason[id])
		}
	}
	return out
}

// WriteTo writes the baseline in its file format, comments aligned.
func (b *Baseline) WriteTo(w io.Writer) (int64, error) {
	var sb strings.Builder
	for _, line := range b.Header {
		sb.WriteString(line + "\n")
	}
	if len(b.Header) > 0 {
		sb.WriteString("\n")
	}
	width := 0
	for _, id := range b.IDs {
		width = max(width, len(id))
	}
	for _, id := range b.IDs {
		if reason := b.Reason[id]; reason != "" {
			fmt.Fprintf(&sb, "%-*s  # %s\n", width, id, reason)
		} else {
			sb.WriteString(id + "\n")
		}
	}
	n, err := io.WriteString(w, sb.String())
	return int64(n), err
}

// writeBaseline replaces the baseline file.
func writeBaseline(path string, b *Baseline) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := b.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("baseline %s: rewritten, %d entries\n", path, len(b.IDs))
	return nil
}
