package bridge

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
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
		res, err := DecodeOpenAI(data)
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
		res, err := DecodeAnthropic(data)
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
