package toolreg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// ToolError is a tool's own failure (a result with isError): the model
// should see Message; the server and tool names are there for audit.
type ToolError struct {
	Server, Tool string
	Message      string
}

func (e *ToolError) Error() string {
	return fmt.Sprintf("tool %q of server %q failed: %s", e.Tool, e.Server, e.Message)
}

// Result is a tool call's outcome, normalized for hosts.
type Result struct {
	Server, Tool string // where the call went
	Content      []mcpclient.Content
	Structured   json.RawMessage
	IsError      bool
	Meta         json.RawMessage // the result's _meta, as the server sent it
	Err          *ToolError      // set when IsError
	Duration     time.Duration
}

// Text returns the text items, joined by newlines.
func (r *Result) Text() string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// Summary renders the result as one string for a model's history: the
// text items first, then a one-line summary of every other item (an image
// is "[image image/png, 68 bytes]", never its data), then the structured
// content as JSON only when there is no text (servers send structured
// content as text too, and a model needs it once), and
// last, for a failed tool, a line saying so. An embedded text resource
// contributes its text after a line naming it.
//
// If max > 0 and the summary is longer than max bytes, it is cut to fit,
// on a UTF-8 boundary, and ends with a note of how much was left out; a
// max too small for the note gets the bare cut.
func (r *Result) Summary(max int) string {
	var b strings.Builder
	line := func(s string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	for _, c := range r.Content {
		if c.Type == "text" {
			line(c.Text)
		}
	}
	for _, c := range r.Content {
		if c.Type != "text" {
			line(itemSummary(c))
			if c.Type == "resource" && c.Resource != nil && !c.Resource.IsBlob && c.Resource.Text != "" {
				line(c.Resource.Text)
			}
		}
	}
	// Structured content goes in only when no text does: servers send it
	// as text too, in whatever layout, and a model needs it once.
	if len(r.Structured) > 0 && !hasText(r.Content) {
		var compact bytes.Buffer
		if json.Compact(&compact, r.Structured) == nil {
			line(compact.String())
		} else {
			line(string(r.Structured))
		}
	}
	if r.IsError {
		line(fmt.Sprintf("[tool %q of server %q reported an error]", r.Tool, r.Server))
	}
	return capString(b.String(), max)
}

// itemSummary describes one non-text content item in a line.
func itemSummary(c mcpclient.Content) string {
	switch c.Type {
	case "image", "audio":
		return fmt.Sprintf("[%s %s, %s]", c.Type, orUnknown(c.MimeType), byteCount(base64Len(c.Data)))
	case "resource_link":
		name := c.Title
		if name == "" {
			name = c.Name
		}
		s := fmt.Sprintf("[resource link %q: %s", name, c.URI)
		if c.MimeType != "" {
			s += ", " + c.MimeType
		}
		if c.Size != nil {
			s += ", " + byteCount(*c.Size)
		}
		return s + "]"
	case "resource":
		if c.Resource == nil {
			return "[resource]"
		}
		rc := c.Resource
		if rc.IsBlob {
			return fmt.Sprintf("[resource %s, %s, %s]", rc.URI, orUnknown(rc.MimeType), byteCount(base64Len(rc.Blob)))
		}
		if rc.MimeType != "" {
			return fmt.Sprintf("[resource %s, %s]", rc.URI, rc.MimeType)
		}
		return fmt.Sprintf("[resource %s]", rc.URI)
	}
	return fmt.Sprintf("[%s content]", c.Type)
}

// hasText reports whether any content item is text.
func hasText(content []mcpclient.Content) bool {
	for _, c := range content {
		if c.Type == "text" && c.Text != "" {
			return true
		}
	}
	return false
}

// capString cuts s to at most max bytes (max <= 0: no cap), at a UTF-8
// boundary, ending in a note of the full size when there is room for one.
func capString(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	note := fmt.Sprintf("\n[… truncated: the full result is %d bytes]", len(s))
	if len(note) >= max {
		note = ""
	}
	keep := max - len(note)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + note
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// base64Len is the decoded size of base64 data, without decoding it.
func base64Len(data string) int64 {
	n := len(data)
	for n > 0 && data[n-1] == '=' {
		n--
	}
	return int64(n) * 3 / 4
}

// byteCount writes n as bytes, KiB or MiB, to one decimal.
func byteCount(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}

// size is what the result carries, in bytes: its text, its items' data
// and its structured content (0 for nil).
func (r *Result) size() int {
	if r == nil {
		return 0
	}
	n := len(r.Structured)
	for _, c := range r.Content {
		n += len(c.Text) + len(c.Data)
		if c.Resource != nil {
			n += len(c.Resource.Text) + len(c.Resource.Blob)
		}
	}
	return n
}
