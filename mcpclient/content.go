package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Content is one item of the content union that tool results, prompt
// messages and sampling messages carry. Type says which fields are set:
//
//	"text"          Text
//	"image","audio" Data (base64) and MimeType
//	"resource_link" URI, Name, and optionally Title, Description, MimeType, Size
//	"resource"      Resource (an embedded text or blob resource)
//	"tool_use"      ID, Name, Input              (sampling only)
//	"tool_result"   ToolUseID, Content, StructuredContent, IsError (sampling only)
//
// A type this package does not know is kept whole in Raw and written back
// unchanged, so a newer server's content survives a trip through a host.
type Content struct {
	Type string

	Text     string
	Data     string // base64, for image and audio
	MimeType string

	URI         string // resource_link
	Name        string // resource_link, tool_use
	Title       string
	Description string
	Size        *int64

	Resource *ResourceContents // embedded resource

	ID                string          // tool_use
	Input             json.RawMessage // tool_use
	ToolUseID         string          // tool_result
	Content           []Content       // tool_result
	StructuredContent json.RawMessage // tool_result
	IsError           bool            // tool_result

	Annotations json.RawMessage
	Meta        json.RawMessage

	// Raw holds the exact JSON of a content item whose Type is unknown.
	Raw json.RawMessage
}

// contentWire is the union's JSON shape. Results decode straight into
// []contentWire in the same pass that decodes the enclosing result, so a
// large text or blob is scanned once (a custom UnmarshalJSON on each item
// would make encoding/json scan it twice more).
type contentWire struct {
	Type              string                `json:"type"`
	Text              *string               `json:"text,omitempty"`
	Data              string                `json:"data,omitempty"`
	MimeType          string                `json:"mimeType,omitempty"`
	URI               string                `json:"uri,omitempty"`
	Name              string                `json:"name,omitempty"`
	Title             string                `json:"title,omitempty"`
	Description       string                `json:"description,omitempty"`
	Size              *int64                `json:"size,omitempty"`
	Resource          *resourceContentsWire `json:"resource,omitempty"`
	ID                string                `json:"id,omitempty"`
	Input             json.RawMessage       `json:"input,omitempty"`
	ToolUseID         string                `json:"toolUseId,omitempty"`
	Content           []Content             `json:"content,omitempty"`
	StructuredContent json.RawMessage       `json:"structuredContent,omitempty"`
	IsError           bool                  `json:"isError,omitempty"`
	Annotations       json.RawMessage       `json:"annotations,omitempty"`
	Meta              json.RawMessage       `json:"_meta,omitempty"`
}

// knownContentTypes are the content types this package decodes into fields.
var knownContentTypes = map[string]bool{
	"text": true, "image": true, "audio": true, "resource_link": true,
	"resource": true, "tool_use": true, "tool_result": true,
}

// UnmarshalJSON decodes a content item by its type.
func (c *Content) UnmarshalJSON(data []byte) error {
	var w contentWire
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("content item: %w", err)
	}
	*c = w.content(data)
	return nil
}

// content converts the wire form; raw is the item's JSON, kept only when
// the type is unknown (nil means "find it later", see decodeContent).
func (w *contentWire) content(raw []byte) Content {
	if !knownContentTypes[w.Type] {
		return Content{Type: w.Type, Raw: append(json.RawMessage(nil), raw...)}
	}
	c := Content{
		Type: w.Type, Data: w.Data, MimeType: w.MimeType, URI: w.URI, Name: w.Name,
		Title: w.Title, Description: w.Description, Size: w.Size,
		ID: w.ID, Input: w.Input, ToolUseID: w.ToolUseID, Content: w.Content,
		StructuredContent: w.StructuredContent, IsError: w.IsError,
		Annotations: w.Annotations, Meta: w.Meta,
	}
	if w.Text != nil {
		c.Text = *w.Text
	}
	if w.Resource != nil {
		r := w.Resource.contents()
		c.Resource = &r
	}
	return c
}

// contentIn is contentWire for decoding: its plain Text shadows the
// embedded pointer, which would cost an allocation per item.
type contentIn struct {
	contentWire
	Text string `json:"text"`
}

func (w *contentIn) content(raw []byte) Content {
	w.contentWire.Text = &w.Text
	return w.contentWire.content(raw)
}

// decodeContent converts a decoded []contentIn. Items of unknown type need
// their raw JSON, which is taken from the enclosing object (rare path:
// decoded a second time only when such an item exists).
func decodeContent(items []contentIn, enclosing []byte, member string) []Content {
	if items == nil {
		return nil
	}
	out := make([]Content, len(items))
	var raws []json.RawMessage
	for i := range items {
		if !knownContentTypes[items[i].Type] && raws == nil {
			raws = rawItems(enclosing, member)
		}
		var raw []byte
		if i < len(raws) {
			raw = raws[i]
		}
		out[i] = items[i].content(raw)
	}
	return out
}

// rawItems returns the items of the array member of enclosing, raw.
func rawItems(enclosing []byte, member string) []json.RawMessage {
	var all map[string]json.RawMessage
	var raws []json.RawMessage
	_ = json.Unmarshal(enclosing, &all)
	_ = json.Unmarshal(all[member], &raws)
	return raws
}

// MarshalJSON writes the fields that belong to the item's type; required
// fields are written even when empty.
func (c Content) MarshalJSON() ([]byte, error) {
	if !knownContentTypes[c.Type] && len(c.Raw) > 0 {
		return c.Raw, nil
	}
	w := contentWire{
		Type: c.Type, Annotations: c.Annotations, Meta: c.Meta,
	}
	switch c.Type {
	case "text":
		w.Text = &c.Text
	case "image", "audio":
		w.Data, w.MimeType = c.Data, c.MimeType
		if w.Data == "" {
			// data is required; write it even when empty.
			return marshalWithEmpty(w, "data")
		}
	case "resource_link":
		w.URI, w.Name, w.Title, w.Description, w.MimeType, w.Size = c.URI, c.Name, c.Title, c.Description, c.MimeType, c.Size
	case "resource":
		if c.Resource != nil {
			w.Resource = c.Resource.wire()
		}
	case "tool_use":
		w.ID, w.Name, w.Input = c.ID, c.Name, c.Input
		if len(w.Input) == 0 {
			w.Input = json.RawMessage("{}")
		}
	case "tool_result":
		w.ToolUseID, w.Content, w.StructuredContent, w.IsError = c.ToolUseID, c.Content, c.StructuredContent, c.IsError
		if w.Content == nil {
			w.Content = []Content{}
			return marshalWithEmpty(w, "content")
		}
	default:
		w.Text = nilIfEmpty(c.Text)
		w.Data, w.MimeType, w.URI, w.Name = c.Data, c.MimeType, c.URI, c.Name
	}
	return json.Marshal(w)
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// marshalWithEmpty marshals w and adds a required member that omitempty
// dropped.
func marshalWithEmpty(w contentWire, member string) ([]byte, error) {
	b, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	empty := `""`
	if member == "content" {
		empty = `[]`
	}
	return append(b[:len(b)-1], []byte(`,"`+member+`":`+empty+`}`)...), nil
}

// ContentList is sampling content: the schema allows one content item or an
// array of them. It decodes both and writes a single item as an object,
// which every protocol version accepts.
type ContentList []Content

// UnmarshalJSON accepts an object or an array.
func (l *ContentList) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var items []Content
		if err := json.Unmarshal(data, &items); err != nil {
			return err
		}
		*l = items
		return nil
	}
	var one Content
	if err := json.Unmarshal(data, &one); err != nil {
		return err
	}
	*l = ContentList{one}
	return nil
}

// MarshalJSON writes one item as an object and several as an array.
func (l ContentList) MarshalJSON() ([]byte, error) {
	if len(l) == 1 {
		return json.Marshal(l[0])
	}
	return json.Marshal([]Content(l))
}

// joinText concatenates the text items of content.
func joinText(content []Content) string {
	var b strings.Builder
	for _, c := range content {
		if c.Type != "text" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c.Text)
	}
	return b.String()
}

// ResourceContents is the body of a resource: Text for text resources, Blob
// (base64) for binary ones.
type ResourceContents struct {
	URI      string
	MimeType string
	Text     string
	Blob     string
	IsBlob   bool // the server sent blob rather than text
	Meta     json.RawMessage
}

type resourceContentsWire struct {
	URI      string          `json:"uri"`
	MimeType string          `json:"mimeType,omitempty"`
	Text     *string         `json:"text,omitempty"`
	Blob     *string         `json:"blob,omitempty"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// UnmarshalJSON decodes text or blob contents.
func (r *ResourceContents) UnmarshalJSON(data []byte) error {
	var w resourceContentsWire
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("resource contents: %w", err)
	}
	*r = w.contents()
	return nil
}

func (w *resourceContentsWire) contents() ResourceContents {
	r := ResourceContents{URI: w.URI, MimeType: w.MimeType, Meta: w.Meta}
	if w.Blob != nil {
		r.Blob, r.IsBlob = *w.Blob, true
	} else if w.Text != nil {
		r.Text = *w.Text
	}
	return r
}

// MarshalJSON writes blob when IsBlob is set or Blob is not empty, text
// otherwise.
func (r ResourceContents) MarshalJSON() ([]byte, error) {
	return json.Marshal(r.wire())
}

func (r *ResourceContents) wire() *resourceContentsWire {
	w := &resourceContentsWire{URI: r.URI, MimeType: r.MimeType, Meta: r.Meta}
	if r.IsBlob || r.Blob != "" {
		w.Blob = &r.Blob
	} else {
		w.Text = &r.Text
	}
	return w
}
