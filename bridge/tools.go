package bridge

import (
	"encoding/json"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// DefaultMaxResultBytes caps a tool result handed to the model when
// [RunOptions].MaxResultBytes is zero.
const DefaultMaxResultBytes = 64 << 10

// Definitions returns the registry's tools as MCP tool definitions named
// by their exposed names (mcp__server__tool), which is what a [Model]
// takes in a sampling request and what it calls them back by. A tool whose
// MCP Apps visibility leaves out the model is left out.
func Definitions(tools []toolreg.Tool) []*mcpclient.Tool {
	out := make([]*mcpclient.Tool, 0, len(tools))
	for _, t := range tools {
		if t.Def != nil && !t.Def.UI().ModelVisible() {
			continue
		}
		d := &mcpclient.Tool{Name: t.Name}
		if t.Def != nil {
			d.Description, d.InputSchema = t.Def.Description, t.Def.InputSchema
		}
		out = append(out, d)
	}
	return out
}

// OpenAITools returns the registry's tools as Chat Completions function
// tools: name mcp__server__tool, the server's description, and its input
// schema passed through.
func OpenAITools(tools []toolreg.Tool) []OpenAITool { return openAITools(Definitions(tools)) }

// AnthropicTools returns the registry's tools as Messages API tool
// definitions: name mcp__server__tool, the server's description, and its
// input schema passed through.
func AnthropicTools(tools []toolreg.Tool) []AnthropicTool {
	return anthropicTools(Definitions(tools))
}

// ToolResult turns a registry call's outcome into the tool_result item
// that answers the model's tool_use id; each adapter then writes it in its
// provider's native form. A result whose content (text, data, structured
// content) is larger than limit bytes is replaced by its summary cut to
// limit (see [toolreg.Result.Summary]); a call that could not be made is
// a failed result carrying the error's text, for the model to read.
func ToolResult(id string, res *toolreg.Result, err error, limit int) mcpclient.Content {
	c := mcpclient.Content{Type: "tool_result", ToolUseID: id}
	if err != nil {
		c.IsError = true
		c.Content = []mcpclient.Content{{Type: "text", Text: err.Error()}}
		return c
	}
	c.IsError = res.IsError
	if limit > 0 && resultSize(res) > limit {
		c.Content = []mcpclient.Content{{Type: "text", Text: res.Summary(limit)}}
		return c
	}
	c.Content, c.StructuredContent = res.Content, res.Structured
	if len(c.StructuredContent) > 0 && !json.Valid(c.StructuredContent) {
		c.StructuredContent = nil
	}
	return c
}

// resultSize is the bytes a result would hand the model.
func resultSize(res *toolreg.Result) int {
	n := len(res.Structured)
	for _, c := range res.Content {
		n += len(c.Text) + len(c.Data)
		if c.Resource != nil {
			n += len(c.Resource.Text) + len(c.Resource.Blob)
		}
	}
	return n
}
