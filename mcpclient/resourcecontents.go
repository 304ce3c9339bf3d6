package mcpclient

import (
	"encoding/json"
	"fmt"
)

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
