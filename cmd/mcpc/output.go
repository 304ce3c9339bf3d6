package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
)

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

// table prints two columns, the first padded to the widest entry.
func table(w io.Writer, rows [][2]string) {
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		if r[1] == "" {
			fmt.Fprintln(w, r[0])
			continue
		}
		fmt.Fprintf(w, "%-*s  %s\n", width, r[0], r[1])
	}
}

// printContent prints content items: text as is, everything else as a
// one-line summary.
func printContent(w io.Writer, content []mcpclient.Content, structured json.RawMessage) {
	for _, c := range content {
		switch c.Type {
		case "text":
			fmt.Fprintln(w, c.Text)
		case "image", "audio":
			fmt.Fprintf(w, "[%s %s, %d bytes]\n", c.Type, c.MimeType, base64.StdEncoding.DecodedLen(len(c.Data)))
		case "resource_link":
			fmt.Fprintf(w, "[link %s %s]\n", c.URI, c.Name)
		case "resource":
			if c.Resource != nil {
				printResource(w, c.Resource)
			}
		default:
			fmt.Fprintf(w, "[%s content] %s\n", c.Type, c.Raw)
		}
	}
	if len(structured) > 0 {
		fmt.Fprintf(w, "structured: %s\n", structured)
	}
}

func printResource(w io.Writer, r *mcpclient.ResourceContents) {
	if r.IsBlob {
		fmt.Fprintf(w, "[%s: %s, %d bytes]\n", r.URI, orUnknown(r.MimeType), base64.StdEncoding.DecodedLen(len(r.Blob)))
		return
	}
	fmt.Fprintln(w, r.Text)
}

func printProgress(w io.Writer, p mcpclient.Progress) {
	switch {
	case p.Total > 0:
		fmt.Fprintf(w, "progress: %g/%g %s\n", p.Progress, p.Total, p.Message)
	default:
		fmt.Fprintf(w, "progress: %g %s\n", p.Progress, p.Message)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 100 {
		s = s[:97] + "..."
	}
	return s
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ")
}

// jsonObject checks that s is a JSON object.
func jsonObject(s string) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	return json.RawMessage(s), nil
}
