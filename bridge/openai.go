package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
)

// defaultOpenAIBaseURL is where [OpenAI] sends requests when BaseURL is
// empty; the official SDKs read it from OPENAI_BASE_URL.
const defaultOpenAIBaseURL = "https://api.openai.com/v1"

// defaultOpenAIMaxTokens is the token limit [OpenAI] sends when a request
// names none (maxTokens 0 or less): Chat Completions without one lets an
// answer run to the model's own limit, at the host's cost.
const defaultOpenAIMaxTokens = 1024

// OpenAI is a [Model] that talks to an OpenAI Chat Completions endpoint,
// POST {BaseURL}/chat/completions, or to any server that speaks the same
// wire. It is safe for concurrent use; set its fields before the first
// request and leave them alone afterwards.
//
// What the provider cannot take becomes a text placeholder: audio, images
// outside user messages, binary resources. Tool results go back as "tool"
// messages of text (structured content as JSON when no text came, a failed
// tool's text marked as an error). The request's metadata and
// includeContext are not sent: Chat Completions has no place for them.
// Its finish reason "stop" covers both a natural end and a stop sequence,
// so a stop sequence reads as endTurn. A request that names no token
// limit (maxTokens 0 or less) is sent with a limit of 1024: Chat
// Completions without one lets an answer run to the model's own limit,
// at the host's cost.
type OpenAI struct {
	APIKey  secret.String     // sent as a bearer token; prints as [redacted], cut out of errors
	BaseURL string            // "" means https://api.openai.com/v1 (the official SDKs read OPENAI_BASE_URL)
	Model   string            // the model used when no hint picks one
	Models  map[string]string // hint → model; the first of the server's hints found here wins
	HTTP    HTTPOptions

	// TokenLimitField names the request field that carries the answer's
	// token limit: "max_completion_tokens" (the default, "" too: what
	// OpenAI's own API reads, and all its reasoning models take) or
	// "max_tokens" (what many OpenAI-compatible servers read instead,
	// ignoring the other). Any other value fails every request.
	TokenLimitField string
}

// CreateMessage sends the conversation to Chat Completions and returns the
// model's answer as an MCP sampling result. Errors are *jsonrpc.Error
// values fit for the server that asked, or ctx.Err().
func (o *OpenAI) CreateMessage(ctx context.Context, p *mcpclient.CreateMessageParams) (*mcpclient.CreateMessageResult, error) {
	req, err := openAIRequest(p, pickModel(p.ModelPreferences, o.Models, o.Model))
	if err != nil {
		return nil, err
	}
	switch o.TokenLimitField {
	case "", "max_completion_tokens":
	case "max_tokens":
		req.MaxTokens, req.MaxCompTok = req.MaxCompTok, 0
	default:
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError,
			"openai: TokenLimitField %q: want max_completion_tokens or max_tokens", o.TokenLimitField)
	}
	c := &caller{provider: "openai", url: baseURL(o.BaseURL, defaultOpenAIBaseURL) + "/chat/completions",
		header: http.Header{}, key: o.APIKey, keyHeader: "Authorization", keyPrefix: "Bearer ", opts: o.HTTP}
	return c.message(ctx, req, &req.Stream, decodeOpenAIStream, decodeOpenAI)
}

// The request's wire shape.
type oaRequest struct {
	Model       string       `json:"model"`
	Messages    []oaMessage  `json:"messages"`
	MaxCompTok  int          `json:"max_completion_tokens,omitempty"`
	MaxTokens   int          `json:"max_tokens,omitempty"`
	Temperature *float64     `json:"temperature,omitempty"`
	Stop        []string     `json:"stop,omitempty"`
	Tools       []openAITool `json:"tools,omitempty"`
	ToolChoice  string       `json:"tool_choice,omitempty"`
	Stream      bool         `json:"stream,omitempty"`
}

type oaMessage struct {
	Role       string       `json:"role"`
	Content    any          `json:"content,omitempty"` // a string or []oaPart
	ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
}

type oaPart struct {
	Type     string      `json:"type"`
	Text     string      `json:"text,omitempty"`
	ImageURL *oaImageURL `json:"image_url,omitempty"`
}

type oaImageURL struct {
	URL string `json:"url"`
}

type oaToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// openAITool is a function tool in a Chat Completions request.
type openAITool struct {
	Type     string         `json:"type"` // "function"
	Function openAIFunction `json:"function"`
}

// openAIFunction names a function tool and its parameters' JSON Schema,
// as exportSchema makes it fit to send.
type openAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// openAIRequest converts a sampling request to Chat Completions.
func openAIRequest(p *mcpclient.CreateMessageParams, model string) (*oaRequest, error) {
	r := &oaRequest{Model: model, MaxCompTok: p.MaxTokens, Temperature: p.Temperature, Stop: p.StopSequences}
	if r.MaxCompTok <= 0 {
		r.MaxCompTok = defaultOpenAIMaxTokens // never unlimited, whatever a server leaves out
	}
	if p.SystemPrompt != "" {
		r.Messages = append(r.Messages, oaMessage{Role: "system", Content: p.SystemPrompt})
	}
	for i, m := range p.Messages {
		switch m.Role {
		case "user":
			r.Messages = append(r.Messages, openAIUser(m.Content)...)
		case "assistant":
			r.Messages = append(r.Messages, openAIAssistant(m.Content))
		default:
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "message %d: unknown role %q", i, m.Role)
		}
	}
	r.Tools = openAITools(p.Tools)
	if p.ToolChoice != nil && len(r.Tools) > 0 {
		switch mode := p.ToolChoice.Mode; mode {
		case "auto", "required", "none":
			r.ToolChoice = mode
		case "":
		default:
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "toolChoice mode %q: want auto, required or none", mode)
		}
	}
	return r, nil
}

// openAIUser converts a user turn: its tool results become "tool"
// messages, which must come right after the assistant's calls, then the
// rest of the turn is one user message.
func openAIUser(content []mcpclient.Content) []oaMessage {
	var out []oaMessage
	var parts []oaPart
	for _, c := range content {
		switch c.Type {
		case "tool_result":
			out = append(out, oaMessage{Role: "tool", ToolCallID: c.ToolUseID, Content: toolResultText("openai", c)})
		case "text":
			parts = append(parts, oaPart{Type: "text", Text: c.Text})
		case "image":
			url := "data:" + c.MimeType + ";base64," + c.Data
			parts = append(parts, oaPart{Type: "image_url", ImageURL: &oaImageURL{URL: url}})
		default:
			parts = append(parts, oaPart{Type: "text", Text: placeholder("openai", c)})
		}
	}
	switch {
	case len(parts) == 1 && parts[0].Type == "text":
		out = append(out, oaMessage{Role: "user", Content: parts[0].Text})
	case len(parts) > 0:
		out = append(out, oaMessage{Role: "user", Content: parts})
	}
	return out
}

// openAIAssistant converts an assistant turn: text (and placeholders)
// joined into its content, tool uses into tool calls.
func openAIAssistant(content []mcpclient.Content) oaMessage {
	m := oaMessage{Role: "assistant"}
	var text []string
	for _, c := range content {
		switch c.Type {
		case "text":
			text = append(text, c.Text)
		case "tool_use":
			var tc oaToolCall
			tc.ID, tc.Type = c.ID, "function"
			tc.Function.Name = c.Name
			tc.Function.Arguments = string(objectOrEmpty(c.Input))
			m.ToolCalls = append(m.ToolCalls, tc)
		default:
			text = append(text, placeholder("openai", c))
		}
	}
	if len(text) > 0 || len(m.ToolCalls) == 0 {
		m.Content = strings.Join(text, "\n") // an empty turn still has content
	}
	return m
}

// The response's wire shape.
type oaResponse struct {
	Model   string    `json:"model"`
	Choices oaChoices `json:"choices"`
}

type oaChoice struct {
	Message struct {
		Content   *string     `json:"content"`
		Refusal   *string     `json:"refusal"`
		ToolCalls oaToolCalls `json:"tool_calls"`
	} `json:"message"`
	FinishReason string `json:"finish_reason"`
}

// decodeOpenAI reads a Chat Completions response body as an MCP sampling
// result: the first choice's text (or refusal) and tool calls, its finish
// reason as a stop reason. A body with no choice, more than 16 choices
// or 128 tool calls, or a tool call whose arguments are not a JSON
// object, is an error.
func decodeOpenAI(data []byte) (*mcpclient.CreateMessageResult, error) {
	var r oaResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return openAIResult(&r)
}

// openAIResult converts a decoded (or stream-assembled) response.
func openAIResult(r *oaResponse) (*mcpclient.CreateMessageResult, error) {
	if len(r.Choices) == 0 {
		return nil, fmt.Errorf("no choices")
	}
	ch := r.Choices[0]
	res := &mcpclient.CreateMessageResult{Role: "assistant", Model: r.Model}
	if t := ch.Message.Content; t != nil && *t != "" {
		res.Content = append(res.Content, mcpclient.Content{Type: "text", Text: *t})
	}
	if t := ch.Message.Refusal; t != nil && *t != "" {
		res.Content = append(res.Content, mcpclient.Content{Type: "text", Text: *t})
	}
	for _, tc := range ch.Message.ToolCalls {
		use, err := openAIToolUse(tc)
		if err != nil {
			return nil, err
		}
		res.Content = append(res.Content, use)
	}
	return finish(res, ch.FinishReason, openAIStopReasons), nil
}

// openAIStopReasons maps a finish_reason to MCP's stopReason; another
// passes as it is.
var openAIStopReasons = map[string]string{
	"stop": "endTurn", "length": "maxTokens", "tool_calls": "toolUse", "function_call": "toolUse", "content_filter": "refusal",
}

// openAIToolUse is one tool call of an answer as MCP tool_use content; its
// arguments must be a JSON object (none is {}).
func openAIToolUse(tc oaToolCall) (mcpclient.Content, error) {
	args := strings.TrimSpace(tc.Function.Arguments)
	if args == "" {
		args = "{}"
	}
	if !isObject([]byte(args)) {
		return mcpclient.Content{}, fmt.Errorf("tool call %q: arguments are not a JSON object", tc.Function.Name)
	}
	if tc.Function.Name == "" {
		return mcpclient.Content{}, fmt.Errorf("tool call %q has no name", tc.ID)
	}
	return mcpclient.Content{Type: "tool_use", ID: tc.ID, Name: tc.Function.Name, Input: json.RawMessage(args)}, nil
}
