package demoserver

import (
	"context"
	"encoding/json"
	"strings"
)

// The tools in this file send a request to the client and wait for its
// answer. Each needs a capability the client declares in initialize; a
// client without it gets a tool error saying so.

// caps returns what the client declared and the negotiated version.
func (ss *session) caps() (clientCaps, string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.client, ss.version
}

type samplingMessage struct {
	Role    string      `json:"role"`
	Content textContent `json:"content"`
}

type createMessageParams struct {
	Messages     []samplingMessage `json:"messages"`
	SystemPrompt string            `json:"systemPrompt,omitempty"`
	MaxTokens    int               `json:"maxTokens"`
	Tools        []samplingTool    `json:"tools,omitempty"`      // 2025-11-25: the model may ask for these
	ToolChoice   map[string]string `json:"toolChoice,omitempty"` // {"mode": "auto" | "required" | "none"}
}

// samplingTool is a tool the sample tool offers the client's model.
type samplingTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// clockTool is what the sample tool offers with "tools": true: the model
// should ask for it rather than answer.
var clockTool = samplingTool{
	Name: "get_time", Description: "The current time in a city.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
}

func sampleTool(ctx context.Context, c *call) (*toolResult, error) {
	var a struct {
		Prompt *string `json:"prompt"`
		Tools  bool    `json:"tools"`
	}
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	if a.Prompt == nil {
		return nil, c.missing("prompt")
	}
	caps, _ := c.ss.caps()
	if !declared(caps.Sampling) {
		return errorResult("the sample tool needs the client's sampling capability, which it did not declare"), nil
	}
	params := createMessageParams{
		Messages:     []samplingMessage{{Role: "user", Content: text(*a.Prompt)}},
		SystemPrompt: "You are a helpful assistant. Answer in one sentence.",
		MaxTokens:    100,
	}
	if a.Tools {
		var sampling struct {
			Tools json.RawMessage `json:"tools"`
		}
		json.Unmarshal(caps.Sampling, &sampling)
		if !declared(sampling.Tools) {
			return errorResult("sampling with tools needs the client's sampling.tools capability, which it did not declare"), nil
		}
		params.Tools, params.ToolChoice = []samplingTool{clockTool}, map[string]string{"mode": "required"}
	}
	var res struct {
		Content    json.RawMessage `json:"content"`
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	err := c.ss.conn.Call(ctx, "sampling/createMessage", params, &res)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return errorResult("sampling failed: %v", err), nil
	}
	said := samplingText(res.Content)
	return &toolResult{
		Content:           []any{text("model said: " + said)},
		StructuredContent: map[string]string{"text": said, "model": res.Model, "stopReason": res.StopReason},
	}, nil
}

// samplingText returns the text of a sampling result's content: one block
// or, since 2025-11-25, an array of blocks. Blocks that are not text are
// shown as their type in brackets; anything else is left out.
func samplingText(raw json.RawMessage) string {
	type block struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		Name  string          `json:"name"`  // tool_use
		Input json.RawMessage `json:"input"` // tool_use
	}
	var blocks []block
	if len(raw) > 0 && raw[0] == '[' {
		json.Unmarshal(raw, &blocks)
	} else {
		var b block
		json.Unmarshal(raw, &b)
		blocks = append(blocks, b)
	}
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_use":
			parts = append(parts, "[tool_use "+b.Name+" "+string(b.Input)+"]")
		case "":
			// Not a content block: nothing to show.
		default:
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, " ")
}

// elicitSchema is the form the elicit tool asks the user to fill in.
var elicitSchema = json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","default":"Ada"},"age":{"type":"integer"}},"required":["name"]}`)

type elicitParams struct {
	Mode            string          `json:"mode,omitempty"` // "form", sent from 2025-11-25 on
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

func elicitTool(ctx context.Context, c *call) (*toolResult, error) {
	var a struct {
		Message *string `json:"message"`
	}
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	if a.Message == nil {
		return nil, c.missing("message")
	}
	caps, version := c.ss.caps()
	if !caps.elicitsForms() {
		return errorResult("the elicit tool needs the client's elicitation capability (form mode), which it did not declare"), nil
	}
	p := elicitParams{Message: *a.Message, RequestedSchema: elicitSchema}
	if version >= "2025-11-25" {
		p.Mode = "form"
	}
	var res struct {
		Action  string                     `json:"action"`
		Content map[string]json.RawMessage `json:"content"`
	}
	if err := c.ss.conn.Call(ctx, "elicitation/create", p, &res); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return errorResult("elicitation failed: %v", err), nil
	}
	summary := "action: " + res.Action
	structured := map[string]any{"action": res.Action}
	if res.Content != nil {
		// A map encodes with sorted keys: the text is deterministic.
		summary += ", content: " + string(mustJSON(res.Content))
		structured["content"] = res.Content
	}
	return &toolResult{Content: []any{text(summary)}, StructuredContent: structured}, nil
}

func rootsTool(ctx context.Context, c *call) (*toolResult, error) {
	if caps, _ := c.ss.caps(); !declared(caps.Roots) {
		return errorResult("the roots tool needs the client's roots capability, which it did not declare"), nil
	}
	var res struct {
		Roots []struct {
			URI string `json:"uri"`
		} `json:"roots"`
	}
	if err := c.ss.conn.Call(ctx, "roots/list", nil, &res); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return errorResult("listing roots failed: %v", err), nil
	}
	if len(res.Roots) == 0 {
		return textResult("no roots"), nil
	}
	uris := make([]string, len(res.Roots))
	for i, r := range res.Roots {
		uris[i] = r.URI
	}
	return textResult("%s", strings.Join(uris, "\n")), nil
}
