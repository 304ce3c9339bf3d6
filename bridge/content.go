package bridge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// The conversions both adapters share: what stands for content a provider
// cannot take, and the defaults of empty schemas and inputs.

// placeholder is the text that stands for content a provider cannot take,
// so the model knows something was there.
func placeholder(provider string, c mcpclient.Content) string {
	switch c.Type {
	case "image", "audio":
		return fmt.Sprintf("[%s content (%s, %d bytes) omitted: %s does not take it here]",
			c.Type, orUnknown(c.MimeType), base64Len(c.Data), provider)
	case "resource_link":
		return fmt.Sprintf("[resource link: %s %s]", c.URI, c.Name)
	case "resource":
		if c.Resource == nil {
			return "[embedded resource]"
		}
		if c.Resource.IsBlob {
			return fmt.Sprintf("[embedded resource %s (%s) omitted: binary]", c.Resource.URI, orUnknown(c.Resource.MimeType))
		}
		return fmt.Sprintf("[embedded resource %s]\n%s", c.Resource.URI, c.Resource.Text)
	}
	return fmt.Sprintf("[%q content omitted: %s does not take it]", c.Type, provider)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// base64Len is the decoded size of base64 data, without decoding it.
func base64Len(data string) int {
	n := len(strings.TrimRight(data, "="))
	return n * 3 / 4
}

// toolResultText is a tool result as one text: its text items, other
// items as placeholders, structured content as JSON when no text came,
// and a failed tool's text marked as an error.
func toolResultText(provider string, c mcpclient.Content) string {
	var lines []string
	hasText := false
	for _, item := range c.Content {
		if item.Type == "text" {
			lines = append(lines, item.Text)
			hasText = true
		} else {
			lines = append(lines, placeholder(provider, item))
		}
	}
	if !hasText && len(c.StructuredContent) > 0 {
		lines = append(lines, string(c.StructuredContent))
	}
	text := strings.Join(lines, "\n")
	if c.IsError {
		text = "[the tool reported an error]\n" + text
	}
	return text
}

// openAITools converts MCP tool definitions to function tools, each
// input schema made fit to send (see exportSchema).
func openAITools(tools []*mcpclient.Tool) []openAITool {
	var out []openAITool
	for _, t := range tools {
		out = append(out, openAITool{Type: "function", Function: openAIFunction{
			Name: t.Name, Description: describeTool(t), Parameters: exportSchema(t.InputSchema)}})
	}
	return out
}

// describeTool is a tool's description, or its name when it has none.
func describeTool(t *mcpclient.Tool) string {
	if t.Description != "" {
		return t.Description
	}
	return "The tool " + t.Name + "."
}

func objectOrEmpty(in json.RawMessage) json.RawMessage {
	if len(in) == 0 {
		return json.RawMessage(`{}`)
	}
	return in
}
