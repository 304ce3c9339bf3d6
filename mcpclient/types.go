package mcpclient

import "encoding/json"

// The types in this file mirror the MCP schema for what the client reads and
// writes. Fields the client only passes on (JSON Schemas, _meta, annotations
// it does not interpret) stay json.RawMessage so nothing is lost or
// reordered on the way through.

// Implementation names a client or server: clientInfo and serverInfo.
type Implementation struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
}

// Icon is an image a server offers for display next to a tool, prompt,
// resource or itself.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// ServerCapabilities says what the server offers. A nil pointer means the
// server did not declare the capability.
type ServerCapabilities struct {
	Tools        *ListChangedCapability `json:"tools,omitempty"`
	Prompts      *ListChangedCapability `json:"prompts,omitempty"`
	Resources    *ResourcesCapability   `json:"resources,omitempty"`
	Logging      json.RawMessage        `json:"logging,omitempty"`
	Completions  json.RawMessage        `json:"completions,omitempty"`
	Tasks        json.RawMessage        `json:"tasks,omitempty"`
	Experimental json.RawMessage        `json:"experimental,omitempty"`
	// Extensions holds the extensions the server declared, by identifier
	// ("io.modelcontextprotocol/skills", say), each with its settings as sent.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
}

// HasExtension reports whether the server declared the extension id: its
// settings are an object (empty when it has none).
func (c ServerCapabilities) HasExtension(id string) bool {
	v, ok := c.Extensions[id]
	return ok && len(v) > 0 && v[0] == '{'
}

// ListChangedCapability is the shape of the tools and prompts capabilities.
type ListChangedCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// ResourcesCapability is the resources capability.
type ResourcesCapability struct {
	Subscribe   bool `json:"subscribe,omitempty"`
	ListChanged bool `json:"listChanged,omitempty"`
}

// Tool is a tool a server offers. InputSchema and OutputSchema are kept
// byte-for-byte as the server sent them: the client never interprets or
// rewrites a schema, it hands it on to the model.
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
	Execution    json.RawMessage  `json:"execution,omitempty"`
	Icons        []Icon           `json:"icons,omitempty"`
	Meta         json.RawMessage  `json:"_meta,omitempty"`
}

// ToolAnnotations are hints about a tool's behaviour. They come from the
// server and are not to be trusted for security decisions. Nil means the
// server gave no hint.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// CallToolResult is the answer to tools/call. IsError means the tool ran and
// failed: that is data for the model, not a Go error.
type CallToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              json.RawMessage `json:"_meta,omitempty"`
}

// Text returns the text of every text content item, joined by newlines.
func (r *CallToolResult) Text() string { return joinText(r.Content) }

// Prompt is a prompt template a server offers.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	Icons       []Icon           `json:"icons,omitempty"`
	Meta        json.RawMessage  `json:"_meta,omitempty"`
}

// PromptArgument describes one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// GetPromptResult is a prompt rendered with arguments.
type GetPromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Resource is a piece of context a server can serve by URI.
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ResourceTemplate describes a family of resources by an RFC 6570 URI
// template.
type ResourceTemplate struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ReadResourceResult holds the contents of a resource (several for a
// directory-like resource).
type ReadResourceResult struct {
	Contents []ResourceContents `json:"contents"`
	Meta     json.RawMessage    `json:"_meta,omitempty"`
}

// CompleteParams asks for completions of one argument of a prompt
// (Ref.Type "ref/prompt", Ref.Name) or of a resource template (Ref.Type
// "ref/resource", Ref.URI).
type CompleteParams struct {
	Ref      CompleteRef      `json:"ref"`
	Argument CompleteArgument `json:"argument"`
	Context  *CompleteContext `json:"context,omitempty"`
}

// CompleteRef names what is being completed.
type CompleteRef struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// CompleteArgument is the argument being typed and its partial value.
type CompleteArgument struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// CompleteContext carries the values of arguments already filled in.
type CompleteContext struct {
	Arguments map[string]string `json:"arguments,omitempty"`
}

// Completion is the answer to completion/complete.
type Completion struct {
	Values  []string `json:"values"`
	Total   *int     `json:"total,omitempty"`
	HasMore bool     `json:"hasMore,omitempty"`
}

// LogMessage is a notifications/message from the server.
type LogMessage struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger,omitempty"`
	Data   json.RawMessage `json:"data"`
}

// Progress is one notifications/progress update for a request made with a
// context from WithProgress.
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"` // 0 when the server does not know
	Message  string  `json:"message,omitempty"`
}

// Root is a directory or file the client lets servers work in.
type Root struct {
	URI  string          `json:"uri"`
	Name string          `json:"name,omitempty"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}
