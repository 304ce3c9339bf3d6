package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
)

// defaultAnthropicBaseURL is where [Anthropic] sends requests when BaseURL
// is empty; the official SDKs read it from ANTHROPIC_BASE_URL.
const defaultAnthropicBaseURL = "https://api.anthropic.com"

// anthropicVersion is the API version [Anthropic] sends as the
// anthropic-version header.
const anthropicVersion = "2023-06-01"

// defaultAnthropicMaxTokens is the max_tokens sent when a request names
// none: the Messages API requires one.
const defaultAnthropicMaxTokens = 1024

// Anthropic is a [Model] that talks to the Anthropic Messages API,
// POST {BaseURL}/v1/messages. It is safe for concurrent use; set its
// fields before the first request and leave them alone afterwards.
//
// Images (JPEG, PNG, GIF, WebP) go into user turns and tool results;
// audio, other images, images in assistant turns and binary resources
// become text placeholders. Tool results keep their error flag as
// is_error. The request's metadata and includeContext are not sent. A
// request that names no token limit (maxTokens 0 or less) is sent with
// max_tokens 1024: the Messages API requires one. Requests carry
// anthropic-version 2023-06-01.
type Anthropic struct {
	APIKey  secret.String     // sent as x-api-key; prints as [redacted], cut out of errors
	BaseURL string            // "" means https://api.anthropic.com (the official SDKs read ANTHROPIC_BASE_URL)
	Model   string            // the model used when no hint picks one
	Models  map[string]string // hint → model; the first of the server's hints found here wins
	HTTP    HTTPOptions
}

// CreateMessage sends the conversation to the Messages API and returns
// the model's answer as an MCP sampling result. Errors are *jsonrpc.Error
// values fit for the server that asked, or ctx.Err().
func (a *Anthropic) CreateMessage(ctx context.Context, p *mcpclient.CreateMessageParams) (*mcpclient.CreateMessageResult, error) {
	req, err := anthropicRequest(p, pickModel(p.ModelPreferences, a.Models, a.Model))
	if err != nil {
		return nil, err
	}
	c := &caller{provider: "anthropic", url: baseURL(a.BaseURL, defaultAnthropicBaseURL) + "/v1/messages",
		header: http.Header{"Anthropic-Version": {anthropicVersion}}, key: a.APIKey, keyHeader: "X-Api-Key", opts: a.HTTP}
	return c.message(ctx, req, &req.Stream, decodeAnthropicStream, decodeAnthropic)
}

type anRequest struct {
	Model         string          `json:"model"`
	MaxTokens     int             `json:"max_tokens"`
	System        string          `json:"system,omitempty"`
	Messages      []anMessage     `json:"messages"`
	Temperature   *float64        `json:"temperature,omitempty"`
	StopSequences []string        `json:"stop_sequences,omitempty"`
	Tools         []anthropicTool `json:"tools,omitempty"`
	ToolChoice    *anToolChoice   `json:"tool_choice,omitempty"`
	Stream        bool            `json:"stream,omitempty"`
}

type anMessage struct {
	Role    string    `json:"role"`
	Content []anBlock `json:"content"`
}

// anBlock is a content block of either direction.
type anBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	Source    *anSource       `json:"source,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   []anBlock       `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type anSource struct {
	Type      string `json:"type"` // "base64"
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type anToolChoice struct {
	Type string `json:"type"`
}

// anthropicTool is a tool definition in a Messages request.
type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func textBlock(s string) anBlock { return anBlock{Type: "text", Text: &s} }

// anthropicImage reports whether the Messages API takes images of mime.
func anthropicImage(mime string) bool {
	switch mime {
	case "image/jpeg", "image/png", "image/gif", "image/webp":
		return true
	}
	return false
}

// anthropicRequest converts a sampling request to the Messages API.
func anthropicRequest(p *mcpclient.CreateMessageParams, model string) (*anRequest, error) {
	r := &anRequest{Model: model, MaxTokens: p.MaxTokens, System: p.SystemPrompt,
		Temperature: p.Temperature, StopSequences: p.StopSequences, Messages: []anMessage{}}
	if r.MaxTokens <= 0 {
		r.MaxTokens = defaultAnthropicMaxTokens
	}
	for i, m := range p.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "message %d: unknown role %q", i, m.Role)
		}
		// Tool results must open a user turn: they go first.
		var results, rest []anBlock
		for _, c := range m.Content {
			switch {
			case c.Type == "tool_result":
				results = append(results, anthropicResult(c))
			case c.Type == "tool_use":
				rest = append(rest, anBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: objectOrEmpty(c.Input)})
			default:
				rest = append(rest, anthropicBlock(c, m.Role == "user"))
			}
		}
		r.Messages = append(r.Messages, anMessage{Role: m.Role, Content: append(results, rest...)})
	}
	r.Tools = anthropicTools(p.Tools)
	if p.ToolChoice != nil && len(r.Tools) > 0 {
		switch mode := p.ToolChoice.Mode; mode {
		case "auto", "none":
			r.ToolChoice = &anToolChoice{Type: mode}
		case "required":
			r.ToolChoice = &anToolChoice{Type: "any"}
		case "":
		default:
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "toolChoice mode %q: want auto, required or none", mode)
		}
	}
	return r, nil
}

// anthropicTools converts MCP tool definitions to Anthropic's, each
// input schema made fit to send (see exportSchema).
func anthropicTools(tools []*mcpclient.Tool) []anthropicTool {
	var out []anthropicTool
	for _, t := range tools {
		out = append(out, anthropicTool{Name: t.Name, Description: describeTool(t), InputSchema: exportSchema(t.InputSchema)})
	}
	return out
}

// anthropicBlock converts text and, where images are taken, an image;
// anything else becomes a placeholder.
func anthropicBlock(c mcpclient.Content, images bool) anBlock {
	switch {
	case c.Type == "text":
		return textBlock(c.Text)
	case c.Type == "image" && images && anthropicImage(c.MimeType):
		return anBlock{Type: "image", Source: &anSource{Type: "base64", MediaType: c.MimeType, Data: c.Data}}
	}
	return textBlock(placeholder("anthropic", c))
}

// anthropicResult converts a tool result: text and images as blocks,
// structured content as JSON text when no text came, the error flag kept.
func anthropicResult(c mcpclient.Content) anBlock {
	b := anBlock{Type: "tool_result", ToolUseID: c.ToolUseID, IsError: c.IsError}
	hasText := false
	for _, item := range c.Content {
		hasText = hasText || item.Type == "text"
		b.Content = append(b.Content, anthropicBlock(item, true))
	}
	if !hasText && len(c.StructuredContent) > 0 {
		b.Content = append(b.Content, textBlock(string(c.StructuredContent)))
	}
	return b
}

type anResponse struct {
	Type       string        `json:"type"`
	Model      string        `json:"model"`
	Content    anReplyBlocks `json:"content"`
	StopReason string        `json:"stop_reason"`
}

// decodeAnthropic reads a Messages API response body as an MCP sampling
// result: its text and tool_use blocks (others, such as thinking, are
// left out) and its stop reason. A body that is not a message, one of
// more than 256 content blocks, or a tool use whose input is not a JSON
// object, is an error.
func decodeAnthropic(data []byte) (*mcpclient.CreateMessageResult, error) {
	var r anResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return anthropicMessage(&r)
}

// anthropicMessage converts a decoded (or stream-assembled) message.
func anthropicMessage(r *anResponse) (*mcpclient.CreateMessageResult, error) {
	if r.Type != "message" {
		return nil, fmt.Errorf("type %q, want \"message\"", r.Type)
	}
	res := &mcpclient.CreateMessageResult{Role: "assistant", Model: r.Model}
	for _, b := range r.Content {
		switch b.Type {
		case "text":
			if b.Text != nil {
				res.Content = append(res.Content, mcpclient.Content{Type: "text", Text: *b.Text})
			}
		case "tool_use":
			if !isObject(b.Input) {
				return nil, fmt.Errorf("tool use %q: input is not a JSON object", b.Name)
			}
			if b.Name == "" {
				return nil, fmt.Errorf("tool use %q has no name", b.ID)
			}
			res.Content = append(res.Content, mcpclient.Content{Type: "tool_use", ID: b.ID, Name: b.Name, Input: b.Input})
		}
	}
	return finish(res, r.StopReason, anthropicStopReasons), nil
}

// anthropicStopReasons maps a stop_reason to MCP's stopReason; another
// passes as it is.
var anthropicStopReasons = map[string]string{
	"end_turn": "endTurn", "max_tokens": "maxTokens", "stop_sequence": "stopSequence", "tool_use": "toolUse",
}
