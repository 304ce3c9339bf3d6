package bridge

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// FuzzDecodeOpenAI feeds the Chat Completions decoder arbitrary bodies: it
// must never panic, and what it accepts must be a result whose tool inputs
// are JSON objects and which encodes as JSON.
func FuzzDecodeOpenAI(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","choices":[{"message":{"content":"hi"},"finish_reason":"stop"}]}`,
		`{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"t","arguments":"{\"x\":1}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"choices":[{"message":{"refusal":"no"},"finish_reason":"content_filter"}]}`,
		`{"choices":[]}`, `{"choices":[{"message":{"tool_calls":[{"function":{"name":"t","arguments":"[1]"}}]}}]}`,
		`null`, `[`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := decodeOpenAI(data)
		if err != nil {
			return
		}
		checkDecoded(t, res.Content)
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("an accepted result does not encode: %v", err)
		}
	})
}

// checkDecoded fails unless content is non-empty and every tool use has a
// name and a JSON object as input.
func checkDecoded(t *testing.T, content mcpclient.ContentList) {
	t.Helper()
	if len(content) == 0 {
		t.Fatal("an accepted result has no content")
	}
	for _, c := range content {
		if c.Type != "tool_use" {
			continue
		}
		var obj map[string]json.RawMessage
		if c.Name == "" || json.Unmarshal(c.Input, &obj) != nil || obj == nil {
			t.Fatalf("tool use %q with input %s: want a name and a JSON object", c.Name, c.Input)
		}
	}
}

// FuzzDecodeAnthropic is FuzzDecodeOpenAI for the Messages API decoder.
func FuzzDecodeAnthropic(f *testing.F) {
	for _, s := range []string{
		`{"type":"message","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn"}`,
		`{"type":"message","content":[{"type":"tool_use","id":"a","name":"t","input":{"x":1}}],"stop_reason":"tool_use"}`,
		`{"type":"message","content":[{"type":"thinking","thinking":"…"}]}`,
		`{"type":"message","content":[{"type":"tool_use","name":"t","input":null}]}`,
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
		`null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := decodeAnthropic(data)
		if err != nil {
			return
		}
		checkDecoded(t, res.Content)
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("an accepted result does not encode: %v", err)
		}
	})
}

// FuzzDecodeStreams feeds both stream decoders (and so the event-stream
// reader under them) arbitrary bytes: neither may panic, and what they
// accept must pass the checks FuzzDecodeOpenAI makes.
func FuzzDecodeStreams(f *testing.F) {
	for _, s := range []string{openAIStream, anthropicStream, "data: [DONE]\n\n", "data: {}\r\n\r\n", "event: x\ndata:\n\n", ":\n\ndata: {\"type\":\"message_stop\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, decode := range []func(io.Reader, func(string)) (*mcpclient.CreateMessageResult, error){
			decodeOpenAIStream, decodeAnthropicStream,
		} {
			res, err := decode(bytes.NewReader(data), func(string) {})
			if err != nil {
				continue
			}
			checkDecoded(t, res.Content)
			if _, err := json.Marshal(res); err != nil {
				t.Fatalf("an accepted result does not encode: %v", err)
			}
		}
	})
}

// FuzzToolResult feeds toolResult a tool result of any shape (a
// CallToolResult's JSON) and any cap: what reaches the model never holds
// more than the cap, whatever the shape, and only text and images.
func FuzzToolResult(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"hi"}]}`,
		`{"content":[{"type":"image","mimeType":"image/png","data":"AAAA"},{"type":"resource_link","uri":"x","name":"n"}]}`,
		`{"content":[{"type":"weird","x":1}],"structuredContent":{"a":[1,2]},"isError":true}`,
		`{"content":[{"type":"resource","resource":{"uri":"u","blob":"AAAA"}}]}`,
	} {
		f.Add([]byte(s), 64)
	}
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		var r mcpclient.CallToolResult
		if json.Unmarshal(data, &r) != nil {
			return
		}
		limit = int(uint(limit)%4096) + 1
		c := toolResult("id", &toolreg.Result{Content: r.Content, Structured: r.StructuredContent, IsError: r.IsError}, nil, limit)
		if n := itemsSize(c.Content); n > limit {
			t.Fatalf("%d bytes reach the model under a cap of %d", n, limit)
		}
		for _, item := range c.Content {
			if item.Type != "text" && item.Type != "image" {
				t.Fatalf("an item of type %q reaches the model", item.Type)
			}
		}
		if len(toolResultText("openai", c)) > limit+200 {
			t.Fatalf("the OpenAI tool message exceeds the cap")
		}
	})
}

// FuzzExportSchema feeds exportSchema any bytes: what it returns is a JSON
// object of type "object", with properties, and none of the keys that
// providers reject at the top.
func FuzzExportSchema(f *testing.F) {
	for _, s := range []string{`{"type":"object"}`, `{"$schema":"x","anyOf":[]}`, `[]`, `null`, ``, `{"properties":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(exportSchema(data), &top); err != nil {
			t.Fatalf("not a JSON object: %v", err)
		}
		if string(top["type"]) != `"object"` || len(top["properties"]) == 0 || top["properties"][0] != '{' {
			t.Fatalf("type %s, properties %s", top["type"], top["properties"])
		}
		for _, k := range rejectedKeys {
			if _, ok := top[k]; ok {
				t.Fatalf("%q kept", k)
			}
		}
	})
}
