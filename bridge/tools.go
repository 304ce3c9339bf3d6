package bridge

import (
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/apps"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Definitions returns the registry's tools as MCP tool definitions named
// by their exposed names (mcp__server__tool), which is what a [Model]
// takes in a sampling request and what it calls them back by. A tool
// with no description is described by its title, else by its own name and
// server, so that the model is never handed a bare name. Schemas are
// passed on as the server listed them; a tool whose MCP Apps visibility
// leaves out the model is left out; the adapters make them fit their
// provider when they send them (see [OpenAITools]).
func Definitions(tools []toolreg.Tool) []*mcpclient.Tool {
	out := make([]*mcpclient.Tool, 0, len(tools))
	for _, t := range tools {
		if t.Def != nil && !apps.ToolUIOf(t.Def).ModelVisible() {
			continue
		}
		d := &mcpclient.Tool{Name: t.Name}
		if t.Def != nil {
			d.Description, d.InputSchema = t.Def.Description, t.Def.InputSchema
			if d.Description == "" {
				d.Description = t.Def.Title
			}
			if d.Description == "" && t.Def.Annotations != nil {
				d.Description = t.Def.Annotations.Title
			}
			if d.Description == "" {
				d.Description = fmt.Sprintf("The tool %q of the MCP server %q.", t.Def.Name, t.Server)
			}
		}
		out = append(out, d)
	}
	return out
}

// OpenAITools returns the registry's tools as Chat Completions function
// tools: name mcp__server__tool, the server's description (see
// [Definitions]), and its input schema made fit to send (see
// [ExportSchema]).
func OpenAITools(tools []toolreg.Tool) []OpenAITool { return openAITools(Definitions(tools)) }

// AnthropicTools returns the registry's tools as Messages API tool
// definitions: name mcp__server__tool, the server's description (see
// [Definitions]), and its input schema made fit to send (see
// [ExportSchema]).
func AnthropicTools(tools []toolreg.Tool) []AnthropicTool {
	return anthropicTools(Definitions(tools))
}

// rejectedKeys are the top-level keys of an input schema that providers
// refuse in a tool definition: "$schema" (which SDKs add to every schema)
// and the other keywords that only describe the document, and "oneOf",
// "anyOf" and "allOf", which the Messages API does not take at the top.
var rejectedKeys = []string{"$schema", "$id", "$comment", "oneOf", "anyOf", "allOf"}

// ExportSchema returns an MCP input schema as providers take it in a tool
// definition: a JSON object whose type is "object", with "properties"
// (an empty object if the server gave none), and without the top-level
// keys providers reject ("$schema", "$id", "$comment", and "oneOf",
// "anyOf" and "allOf"). Anything that is not a JSON object becomes an
// empty object schema. The registry keeps the server's schema byte for
// byte; only the copy sent to a provider is changed, and only at the top:
// the server still checks the arguments against its own.
func ExportSchema(schema json.RawMessage) json.RawMessage {
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil || top == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	changed := false
	for _, k := range rejectedKeys {
		if _, ok := top[k]; ok {
			delete(top, k)
			changed = true
		}
	}
	if string(top["type"]) != `"object"` {
		top["type"], changed = json.RawMessage(`"object"`), true
	}
	if p, ok := top["properties"]; !ok || len(p) == 0 || p[0] != '{' {
		top["properties"], changed = json.RawMessage(`{}`), true
	}
	if !changed {
		return schema
	}
	out, err := json.Marshal(top)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return out
}
