package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// lineWidth is the width listings fit their descriptions to.
const lineWidth = 100

// printer writes a command's result as JSON or for people.
type printer struct {
	w    io.Writer
	json bool
}

func (p *printer) print(v any, human func(io.Writer)) error {
	if !p.json {
		human(p.w)
		return nil
	}
	enc := json.NewEncoder(p.w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// marshal is json.Marshal without HTML escaping.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// columns prints aligned columns.
type columns struct{ tw *tabwriter.Writer }

func newColumns(w io.Writer, header ...string) *columns {
	c := &columns{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	if len(header) > 0 {
		c.row(header...)
	}
	return c
}

func (c *columns) row(cells ...string) { fmt.Fprintln(c.tw, strings.Join(cells, "\t")) }
func (c *columns) flush()              { c.tw.Flush() }

// groupRow is one line of a listing: a name and what it is, by server.
type groupRow struct{ server, name, desc string }

// printGroups prints a listing server by server: a heading with the count
// (or why the server has nothing to show), then its rows, the second
// column fitted to the line.
func printGroups(w io.Writer, reg *toolreg.Registry, all []groupRow, noun string) {
	for i, st := range reg.Servers() {
		if i > 0 {
			fmt.Fprintln(w)
		}
		var rows [][2]string
		for _, r := range all {
			if r.server == st.Name {
				rows = append(rows, [2]string{r.name, r.desc})
			}
		}
		switch {
		case st.State != toolreg.StateConnected:
			fmt.Fprintf(w, "%s: %s\n", st.Name, clip(clean(reasonLine(st)), lineWidth))
			continue
		case len(rows) == 1:
			fmt.Fprintf(w, "%s: 1 %s\n", st.Name, noun)
		default:
			fmt.Fprintf(w, "%s: %d %ss\n", st.Name, len(rows), noun)
		}
		width := 0
		for _, r := range rows {
			width = max(width, len(r[0]))
		}
		room := max(lineWidth-width-4, 30)
		for _, r := range rows {
			if desc := firstLine(r[1], room); desc != "" {
				fmt.Fprintf(w, "  %-*s  %s\n", width, clean(r[0]), desc)
			} else {
				fmt.Fprintf(w, "  %s\n", clean(r[0]))
			}
		}
	}
}

// printContent prints content items: text as is, everything else as a
// one-line summary; the structured content when no item is text.
func printContent(w io.Writer, content []mcpclient.Content, structured json.RawMessage) {
	text := false
	for _, c := range content {
		switch c.Type {
		case "text":
			printText(w, c.Text)
			text = true
		case "image", "audio":
			fmt.Fprintf(w, "[%s %s, %d bytes]\n", c.Type, orUnknown(c.MimeType), base64.StdEncoding.DecodedLen(len(c.Data)))
		case "resource_link":
			fmt.Fprintf(w, "[link %s %s]\n", c.URI, c.Name)
		case "resource":
			if c.Resource != nil {
				printResource(w, c.Resource)
			}
		default:
			fmt.Fprintf(w, "[%s content]\n", clean(c.Type))
		}
	}
	if len(structured) > 0 && !text {
		fmt.Fprintf(w, "%s\n", structured)
	}
}

func printResource(w io.Writer, r *mcpclient.ResourceContents) {
	if r.IsBlob {
		fmt.Fprintf(w, "[%s: %s, %d bytes]\n", r.URI, orUnknown(r.MimeType), base64.StdEncoding.DecodedLen(len(r.Blob)))
		return
	}
	printText(w, r.Text)
}

// printText prints s as a line: a newline is added unless s ends in one.
func printText(w io.Writer, s string) {
	if strings.HasSuffix(s, "\n") {
		io.WriteString(w, s)
		return
	}
	fmt.Fprintln(w, s)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// firstLine is the first line of s, cut to n characters.
func firstLine(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return clip(clean(s), n)
}

// clip cuts s to n characters, ending in "..." if it was longer: at the
// last space that keeps at least half of the room, so a word is not cut in
// two unless it is very long.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)[:max(n-3, 0)]
	for i := len(runes) - 1; i >= len(runes)/2; i-- {
		if runes[i] == ' ' {
			runes = runes[:i]
			break
		}
	}
	return strings.TrimRight(string(runes), " ,;:") + "..."
}

// clean fits a server's text into one cell or line of a listing: control
// characters (line breaks, escape sequences, carriage returns) and
// bidirectional controls become spaces. It is layout, not the guard:
// everything mcpc prints also passes the printable filter of its output
// (cli.run), whatever escaped this.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}

// Bounds of a quotation (quoted).
const (
	maxQuotedLine  = 500 // characters
	maxQuotedLines = 200
)

// quoted shows a server's text as a quotation, line by line, each line
// and their number bounded.
func quoted(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	more := len(lines) - maxQuotedLines
	lines = lines[:min(len(lines), maxQuotedLines)]
	for i, l := range lines {
		lines[i] = "  > " + clip(clean(l), maxQuotedLine)
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf("  > … (%d more lines)", more))
	}
	return strings.Join(lines, "\n")
}
