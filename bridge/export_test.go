package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/offer"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Schemas go to providers without the keys they reject; the registry
// keeps the server's bytes; a tool without description gets one.
func TestExportSchema(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{},"additionalProperties":false}`,
			`{"additionalProperties":false,"properties":{},"type":"object"}`},
		{`{"type":"object"}`, `{"properties":{},"type":"object"}`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`, `{"properties":{},"type":"object"}`},
		{`{"$id":"x","$comment":"c","anyOf":[{"required":["a"]}],"properties":{"a":{"$schema":"kept below the top"}}}`,
			`{"properties":{"a":{"$schema":"kept below the top"}},"type":"object"}`},
		{``, `{"type":"object","properties":{}}`},
		{`[1]`, `{"type":"object","properties":{}}`},
		{`{"type":"string"}`, `{"properties":{},"type":"object"}`},
	} {
		if got := string(exportSchema(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("exportSchema(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	schema := `{"$schema":"https://json-schema.org/draft/2020-12/schema", "type":"object"}`
	tools := []toolreg.Tool{
		{Name: "mcp__s__a", Server: "s", Def: &mcpclient.Tool{Name: "a", InputSchema: json.RawMessage(schema)}},
		{Name: "mcp__s__b", Server: "s", Def: &mcpclient.Tool{Name: "b", Title: "Bee", InputSchema: json.RawMessage(schema)}},
	}
	oa := openAIToolsOf(tools)
	if got := string(oa[0].Function.Parameters); strings.Contains(got, "$schema") {
		t.Errorf("exported %s, want no $schema", got)
	}
	if string(tools[0].Def.InputSchema) != schema {
		t.Errorf("the registry's schema was changed: %s", tools[0].Def.InputSchema)
	}
	an := anthropicToolsOf(tools)
	if oa[0].Function.Description != `The tool "a" of the MCP server "s".` || an[1].Description != "Bee" {
		t.Errorf("descriptions %q and %q, want the fallbacks", oa[0].Function.Description, an[1].Description)
	}
}

// The token limit goes in the field the provider reads: by default
// max_completion_tokens, or max_tokens for servers that read that one.
func TestOpenAITokenLimitField(t *testing.T) {
	for _, tc := range []struct{ field, want string }{
		{"", `"max_completion_tokens":100`},
		{"max_completion_tokens", `"max_completion_tokens":100`},
		{"max_tokens", `"max_tokens":100`},
	} {
		f := newFake(t, answer("ok"))
		m := newOpenAI(f)
		m.TokenLimitField = tc.field
		p := hi()
		p.MaxTokens = 100
		if _, err := m.CreateMessage(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		body := string(f.requests()[0].body)
		if !strings.Contains(body, tc.want) || strings.Count(body, "tokens\"") != 1 {
			t.Errorf("field %q: got %s, want %s alone", tc.field, body, tc.want)
		}
	}
	m := &OpenAI{TokenLimitField: "max_output_tokens"}
	if _, err := m.CreateMessage(context.Background(), hi()); err == nil {
		t.Error("an unknown field: got no error")
	}
}

// A request that names no token limit (maxTokens 0, or less) still
// sends one: MCP requires maxTokens "to prevent runaway completions",
// and Chat Completions without a limit lets the answer run to the
// model's own, at the host's cost, as a server that leaves it out wants.
func TestOpenAITokenLimitWhenNoneGiven(t *testing.T) {
	for _, field := range []string{"", "max_tokens"} {
		for _, asked := range []int{0, -5} {
			f := newFake(t, answer("ok"))
			m := newOpenAI(f)
			m.TokenLimitField = field
			p := hi()
			p.MaxTokens = asked
			if _, err := m.CreateMessage(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			body := string(f.requests()[0].body)
			if want := fmt.Sprintf(`tokens":%d`, defaultOpenAIMaxTokens); !strings.Contains(body, want) || strings.Count(body, "tokens\"") != 1 {
				t.Errorf("field %q, maxTokens %d: got %s, want %s alone", field, asked, body, want)
			}
		}
	}
}

// openAIToolsOf and anthropicToolsOf are the registry's tools as each
// adapter sends them.
func openAIToolsOf(tools []toolreg.Tool) []openAITool { return openAITools(offer.Definitions(tools)) }

func anthropicToolsOf(tools []toolreg.Tool) []anthropicTool {
	return anthropicTools(offer.Definitions(tools))
}
