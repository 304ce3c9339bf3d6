package bridge

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Every shape a server can give a result, each with one field far past
// the cap: what either adapter sends the model stays within the cap (and
// a constant of wording), whatever the shape.
func TestEveryResultShapeIsCapped(t *testing.T) {
	const limit = 4096
	const slack = 200 // the adapters' own wording around a result
	huge := strings.Repeat("x", 1<<20)
	image := base64.StdEncoding.EncodeToString([]byte(huge))
	many := make([]mcpclient.Content, 10_000) // each described in words: 40 times the cap
	for i := range many {
		many[i] = mcpclient.Content{Type: "mystery"}
	}
	for _, tc := range []struct {
		name string
		res  *toolreg.Result
		err  error
	}{
		{name: "text", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "text", Text: huge}}}},
		{name: "many texts", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "text", Text: huge[:limit]}, {Type: "text", Text: huge[:limit]}}}},
		{name: "image data", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "image", MimeType: "image/png", Data: image}}}},
		{name: "image MIME type", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "image", MimeType: huge, Data: "AAAA"}}}},
		{name: "audio", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "audio", MimeType: huge, Data: image}}}},
		{name: "resource link name", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "resource_link", Name: huge, URI: "file:///a"}}}},
		{name: "resource link URI", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "resource_link", Name: "a", URI: "file:///" + huge}}}},
		{name: "text resource", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "resource", Resource: &mcpclient.ResourceContents{URI: "file:///a", Text: huge}}}}},
		{name: "blob resource", res: &toolreg.Result{Content: []mcpclient.Content{{Type: "resource", Resource: &mcpclient.ResourceContents{URI: huge, MimeType: huge, Blob: image, IsBlob: true}}}}},
		{name: "unknown type", res: &toolreg.Result{Content: []mcpclient.Content{{Type: huge}}}},
		{name: "ten thousand unknown items", res: &toolreg.Result{Content: many}},
		{name: "structured content", res: &toolreg.Result{Structured: json.RawMessage(`{"s":"` + huge + `"}`)}},
		{name: "invalid structured content", res: &toolreg.Result{Structured: json.RawMessage(`{"s":` + huge)}},
		{name: "tool error", res: &toolreg.Result{IsError: true, Content: []mcpclient.Content{{Type: "text", Text: huge}}}},
		{name: "call error", err: errors.New("server said: " + huge)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := toolResult("id", tc.res, tc.err, limit)
			if n := itemsSize(c.Content); n > limit {
				t.Errorf("the result holds %d bytes, want at most %d", n, limit)
			}
			if len(c.StructuredContent) > 0 {
				t.Errorf("structured content is passed on raw (%d bytes)", len(c.StructuredContent))
			}
			if n := len(toolResultText("openai", c)); n > limit+slack {
				t.Errorf("openai: the tool message is %d bytes, want at most %d", n, limit+slack)
			}
			n := 0
			for _, b := range anthropicResult(c).Content {
				if b.Text != nil {
					n += len(*b.Text)
				}
				if b.Source != nil {
					n += len(b.Source.Data) + len(b.Source.MediaType)
				}
			}
			if n > limit+slack {
				t.Errorf("anthropic: the tool result is %d bytes, want at most %d", n, limit+slack)
			}
		})
	}
}

// What fits the cap goes as the provider takes it: text as text, a
// decodable image as an image, the rest described.
func TestResultShapesUnderTheCap(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("not really a png"))
	res := &toolreg.Result{Content: []mcpclient.Content{
		{Type: "text", Text: "hello"},
		{Type: "image", MimeType: "image/png", Data: png},
		{Type: "image", MimeType: "image/png", Data: "not base64!"},
		{Type: "image", MimeType: "image/tiff", Data: png},
		{Type: "resource_link", Name: "notes", URI: "file:///notes.md"},
		{Type: "resource", Resource: &mcpclient.ResourceContents{URI: "file:///a.txt", Text: "inside"}},
		{Type: "widget"},
	}, Structured: json.RawMessage(`{"ignored": "when text came"}`)}
	c := toolResult("id", res, nil, 0)
	var got []string
	for _, item := range c.Content {
		if item.Type == "image" {
			got = append(got, "image "+item.MimeType)
		} else {
			got = append(got, item.Text)
		}
	}
	want := []string{"hello", "image image/png", "[image content (image/png, 8 bytes) omitted]",
		"[image content (image/tiff, 16 bytes) omitted]", `[resource link "notes": file:///notes.md]`,
		"[embedded resource file:///a.txt]\ninside", `["widget" content omitted]`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	only := toolResult("id", &toolreg.Result{Structured: json.RawMessage(`{ "sum": 42 }`)}, nil, 0)
	if len(only.Content) != 1 || only.Content[0].Text != `{"sum":42}` {
		t.Errorf("structured content alone: got %+v, want its compact JSON as text", only.Content)
	}
}
