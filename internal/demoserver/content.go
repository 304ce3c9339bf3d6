package demoserver

import (
	"encoding/json"
	"fmt"
)

// The wire types below are the part of the MCP schema this server sends.
// Fields it never fills are left out.

// textContent is a text content block.
type textContent struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

func text(s string) textContent { return textContent{Type: "text", Text: s} }

// mediaContent is an image or audio content block.
type mediaContent struct {
	Type     string `json:"type"` // "image" or "audio"
	Data     string `json:"data"` // base64
	MimeType string `json:"mimeType"`
}

// resourceLink points at a resource the client may read.
type resourceLink struct {
	Type        string `json:"type"` // "resource_link"
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

// embeddedResource carries a resource's contents inside a result.
type embeddedResource struct {
	Type     string `json:"type"` // "resource"
	Resource any    `json:"resource"`
}

// textContents and blobContents are the two shapes of resource contents.
type textContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text"`
}

type blobContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Blob     string `json:"blob"` // base64
}

// toolResult is the result of tools/call.
type toolResult struct {
	Content           []any `json:"content"`
	StructuredContent any   `json:"structuredContent,omitempty"`
	IsError           bool  `json:"isError,omitempty"`

	// encoded, if set, is the whole result already encoded, sent instead
	// of the fields above; the big tool uses it to skip encoding/json.
	encoded json.RawMessage
}

// textResult is a successful result holding one text block.
func textResult(format string, args ...any) *toolResult {
	return &toolResult{Content: []any{text(fmt.Sprintf(format, args...))}}
}

// errorResult is a tool error: a result the model can read, with isError
// set. It is data, not a JSON-RPC error.
func errorResult(format string, args ...any) *toolResult {
	r := textResult(format, args...)
	r.IsError = true
	return r
}

// mustJSON encodes a value built from literals; failing is a bug.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("demoserver: encoding %T: %v", v, err))
	}
	return b
}

// pixelPNG is a valid 1×1 PNG (one blue-grey pixel), base64.
const pixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAEElEQVR4nGIyTpsJCAAA//8CCgE1Qf2clwAAAABJRU5ErkJggg=="

// silenceWAV is a valid WAV file: 8 samples of silence, 8 kHz, mono,
// 8-bit PCM, base64.
const silenceWAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA=="
