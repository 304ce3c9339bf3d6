package bridge

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// What a tool result becomes before a model reads it. A server controls
// every field of a result (a resource link's name, a MIME type, a content
// type no one knows, structured content, its error text), so none of them
// goes to the model as it came: the result is first rewritten into the
// two shapes every provider takes, text and images it can decode, and
// then the bytes of that — the only bytes the adapters send on — are
// held to one cap. Whatever the shape, nothing larger gets through.

// defaultMaxResultBytes caps a tool result handed to the model when
// [RunOptions].MaxResultBytes, or toolResult's limit, is zero.
const defaultMaxResultBytes = 64 << 10

// maxField bounds one server-named field (a URI, a name, a MIME type, a
// content type) inside a placeholder, so that one of them cannot crowd
// out the rest of a result.
const maxField = 256

// toolResult turns a registry call's outcome into the tool_result item
// that answers the model's tool_use id; each adapter then writes it in its
// provider's native form.
//
// The result is rewritten into text and images only: text items as they
// are; images of a type the providers take (JPEG, PNG, GIF, WebP) whose
// data is valid base64; every other item (audio, binary or text resources,
// resource links, types this package does not know) as a line of text
// describing it; structured content as compact JSON text when no text
// came. If what is left — its text and its image data — is more than
// limit bytes (limit <= 0 means defaultMaxResultBytes), the whole becomes
// one text cut to limit, ending in a note of what was left out. A call
// that could not be made is a failed result carrying the error's text,
// held to the same limit.
func toolResult(id string, res *toolreg.Result, err error, limit int) mcpclient.Content {
	if limit <= 0 {
		limit = defaultMaxResultBytes
	}
	c := mcpclient.Content{Type: "tool_result", ToolUseID: id}
	if err != nil || res == nil {
		if err == nil {
			err = fmt.Errorf("no result")
		}
		c.IsError = true
		c.Content = []mcpclient.Content{textItem(capText(err.Error(), limit))}
		return c
	}
	c.IsError = res.IsError
	items := modelItems(res.Content, res.Structured)
	if itemsSize(items) > limit {
		items = []mcpclient.Content{textItem(capText(itemsText(items), limit))}
	}
	c.Content = items
	return c
}

// refusal is the tool_result of a call that was not made, saying why.
func refusal(id, why string) mcpclient.Content {
	return mcpclient.Content{Type: "tool_result", ToolUseID: id, IsError: true,
		Content: []mcpclient.Content{textItem(capText(why, defaultMaxResultBytes))}}
}

func textItem(s string) mcpclient.Content { return mcpclient.Content{Type: "text", Text: s} }

// modelItems rewrites a result's content into text and decodable images.
func modelItems(content []mcpclient.Content, structured json.RawMessage) []mcpclient.Content {
	out := make([]mcpclient.Content, 0, len(content)+1)
	hasText := false
	for _, c := range content {
		switch {
		case c.Type == "text":
			out = append(out, textItem(c.Text))
			hasText = true
		case c.Type == "image" && anthropicImage(c.MimeType) && validBase64(c.Data):
			out = append(out, mcpclient.Content{Type: "image", MimeType: c.MimeType, Data: c.Data})
		default:
			out = append(out, textItem(describe(c)))
		}
	}
	if len(structured) > 0 && !hasText {
		var b bytes.Buffer
		if json.Compact(&b, structured) == nil {
			out = append(out, textItem(b.String()))
		} else {
			out = append(out, textItem("[structured content that is not valid JSON, omitted]"))
		}
	}
	return out
}

// describe is the line of text that stands for an item the model is not
// handed as it is. Text resources keep their text after the line.
func describe(c mcpclient.Content) string {
	switch c.Type {
	case "image", "audio":
		return fmt.Sprintf("[%s content (%s, %d bytes) omitted]", c.Type, field(orUnknown(c.MimeType)), base64Len(c.Data))
	case "resource_link":
		name := c.Title
		if name == "" {
			name = c.Name
		}
		return fmt.Sprintf("[resource link %q: %s]", field(name), field(c.URI))
	case "resource":
		r := c.Resource
		switch {
		case r == nil:
			return "[embedded resource]"
		case r.IsBlob:
			return fmt.Sprintf("[embedded resource %s (%s, %d bytes) omitted: binary]", field(r.URI), field(orUnknown(r.MimeType)), base64Len(r.Blob))
		}
		return fmt.Sprintf("[embedded resource %s]\n%s", field(r.URI), r.Text)
	}
	return fmt.Sprintf("[%q content omitted]", field(c.Type))
}

// field is a server-named string cut to maxField bytes.
func field(s string) string { return cutUTF8(s, maxField) }

// validBase64 reports whether data is standard base64, which a provider
// decodes: one bad image would otherwise fail every later turn.
func validBase64(data string) bool {
	if data == "" {
		return false
	}
	_, err := base64.StdEncoding.DecodeString(data)
	return err == nil
}

// itemsSize is the bytes of items that reach the model: text and image data.
func itemsSize(items []mcpclient.Content) int {
	n := 0
	for _, c := range items {
		n += len(c.Text) + len(c.Data)
	}
	return n
}

// itemsText is items as one text, images described.
func itemsText(items []mcpclient.Content) string {
	var b strings.Builder
	for i, c := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		if c.Type == "text" {
			b.WriteString(c.Text)
		} else {
			b.WriteString(describe(c))
		}
	}
	return b.String()
}

// capText cuts s to at most limit bytes on a UTF-8 boundary, ending in a
// note of the full size when there is room for one.
func capText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	note := fmt.Sprintf("\n[… cut: the whole was %d bytes, at most %d go to the model]", len(s), limit)
	if len(note) >= limit {
		note = ""
	}
	return cutUTF8(s, limit-len(note)) + note
}

// cutUTF8 is s cut to at most n bytes, on a rune boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
