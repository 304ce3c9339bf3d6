package demoserver

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// codeResourceNotFound is MCP's error code for resources/read of an unknown
// URI (kept here: the server side does not import the client package).
const codeResourceNotFound = -32002

// The demo resources' URIs.
const (
	readmeURI        = "demo://docs/readme"
	numbersURI       = "demo://data/numbers.json"
	pixelURI         = "demo://images/pixel.png"
	greetingTemplate = "demo://greetings/{name}"
	greetingPrefix   = "demo://greetings/"
)

const readmeText = `# plainmcp demo server

This server exists to demonstrate and test MCP clients. It offers tools,
prompts and resources, and exercises sampling, elicitation, roots,
progress, cancellation, logging and subscriptions.
`

const numbersJSON = `{"primes":[2,3,5,7,11],"fibonacci":[1,1,2,3,5,8]}`

type resourceDef struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

type templateDef struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

// resourceItems and templateItems are what resources/list and
// resources/templates/list show, encoded once.
var (
	resourceItems = []json.RawMessage{
		mustJSON(resourceDef{URI: readmeURI, Name: "readme", Title: "Demo README", Description: "What this server is for.", MimeType: "text/markdown"}),
		mustJSON(resourceDef{URI: numbersURI, Name: "numbers", Title: "Numbers", Description: "A few primes and Fibonacci numbers.", MimeType: "application/json"}),
		mustJSON(resourceDef{URI: pixelURI, Name: "pixel", Title: "Pixel", Description: "A 1×1 PNG image, as a blob.", MimeType: "image/png"}),
	}
	templateItems = []json.RawMessage{
		mustJSON(templateDef{URITemplate: greetingTemplate, Name: "greeting", Title: "Greeting", Description: "A greeting for {name}.", MimeType: "text/plain"}),
	}
)

// contents returns the contents of the resource at uri, or nil if there is
// none.
func contents(uri string) any {
	switch uri {
	case readmeURI:
		return textContents{URI: uri, MimeType: "text/markdown", Text: readmeText}
	case numbersURI:
		return textContents{URI: uri, MimeType: "application/json", Text: numbersJSON}
	case pixelURI:
		return blobContents{URI: uri, MimeType: "image/png", Blob: pixelPNG}
	}
	if rest, ok := strings.CutPrefix(uri, greetingPrefix); ok && rest != "" && !strings.Contains(rest, "/") {
		if name, err := url.PathUnescape(rest); err == nil {
			return textContents{URI: uri, MimeType: "text/plain", Text: "Hello, " + name + "!"}
		}
	}
	return nil
}

// notFound is the error for a URI that names no resource: code -32002 with
// the URI in data, as the specification suggests.
func notFound(method, uri string) error {
	return &jsonrpc.Error{
		Code:    codeResourceNotFound,
		Message: method + ": resource not found: " + uri,
		Data:    mustJSON(map[string]string{"uri": uri}),
	}
}

func (ss *session) listResources(ctx context.Context, params json.RawMessage) (any, error) {
	items := resourceItems
	if ss.srv.tick > 0 {
		items = append(slices.Clip(items), counterItem)
	}
	return ss.listPage("resources/list", "resources", params, items)
}

func (ss *session) listTemplates(ctx context.Context, params json.RawMessage) (any, error) {
	return ss.listPage("resources/templates/list", "resourceTemplates", params, templateItems)
}

type uriParams struct {
	URI string `json:"uri"`
}

func (ss *session) readResource(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := decodeParams("resources/read", params, &p); err != nil {
		return nil, err
	}
	c := ss.readable(p.URI)
	if c == nil {
		return nil, notFound("resources/read", p.URI)
	}
	return map[string][]any{"contents": {c}}, nil
}

// subscribe remembers the URI; the touch tool then notifies the client
// about it.
func (ss *session) subscribe(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := decodeParams("resources/subscribe", params, &p); err != nil {
		return nil, err
	}
	if ss.readable(p.URI) == nil {
		return nil, notFound("resources/subscribe", p.URI)
	}
	ss.mu.Lock()
	ss.subscriptions[p.URI] = true
	ss.mu.Unlock()
	return struct{}{}, nil
}

func (ss *session) unsubscribe(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := decodeParams("resources/unsubscribe", params, &p); err != nil {
		return nil, err
	}
	ss.mu.Lock()
	delete(ss.subscriptions, p.URI)
	ss.mu.Unlock()
	return struct{}{}, nil
}
