package bridge

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// An answer holds memory in proportion to its bytes, whatever its shape:
// the body's limit (maxResponseBytes) is what bounds an answer, so two
// bytes of it ({} in an array) may not become a struct of a hundred. A
// provider's 16 MiB of them held gigabytes: thousands of content
// blocks, choices, tool calls, nested content never read, or a tool
// call's arguments of millions of keys. What is over a bound is an error.
func TestAnswerMemoryFollowsItsBytes(t *testing.T) {
	openAI := func(b string) error { _, err := decodeOpenAI([]byte(b)); return err }
	anthropic := func(b string) error { _, err := decodeAnthropic([]byte(b)); return err }
	openAIStream := func(b string) error {
		_, err := decodeOpenAIStream(strings.NewReader("data: "+b+"\n\ndata: [DONE]\n\n"), func(string) {})
		return err
	}
	anthropicStream := func(b string) error {
		_, err := decodeAnthropicStream(strings.NewReader("data: "+b+"\n\n"), func(string) {})
		return err
	}
	for _, tc := range []struct {
		name              string
		decode            func(string) error
		before, el, after string
	}{
		{"anthropic blocks", anthropic, `{"type":"message","content":[`, `{},`, `{}]}`},
		{"anthropic text blocks", anthropic, `{"type":"message","content":[`, `{"type":"text","text":""},`, `{}]}`},
		{"anthropic nested content", anthropic, `{"type":"message","content":[{"type":"x","content":[`, `{},`, `{}]}]}`},
		{"anthropic tool input keys", anthropic, `{"type":"message","content":[{"type":"tool_use","name":"a","input":{`, `"a":1,`, `"b":1}}]}`},
		{"openai choices", openAI, `{"choices":[`, `{},`, `{}]}`},
		{"openai tool calls", openAI, `{"choices":[{"message":{"tool_calls":[`, `{},`, `{}]}}]}`},
		{"openai arguments keys", openAI, `{"choices":[{"message":{"tool_calls":[{"function":{"name":"a","arguments":"{`, `\"a\":1,`, `\"b\":1}"}}]}}]}`},
		{"openai chunk choices", openAIStream, `{"choices":[`, `{},`, `{}]}`},
		{"openai chunk tool calls", openAIStream, `{"choices":[{"delta":{"tool_calls":[`, `{},`, `{}]}}]}`},
		{"anthropic block start content", anthropicStream, `{"type":"content_block_start","index":0,"content_block":{"type":"text","content":[`, `{},`, `{}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// 256 KiB shows the ratio as well as the 16 MiB a body may
			// hold, in a sixty-fourth of the time (under -race, 37 s).
			n := (256<<10 - len(tc.before) - len(tc.after)) / len(tc.el)
			body := tc.before + strings.Repeat(tc.el, n) + tc.after
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := tc.decode(body)
			runtime.ReadMemStats(&after)
			if got, bound := after.TotalAlloc-before.TotalAlloc, 10*uint64(len(body)); got > bound {
				t.Errorf("decoding %d MiB allocated %d MiB, want at most %d MiB (error: %v)", len(body)>>20, got>>20, bound>>20, err)
			}
		})
	}
}

// The bounds on an answer's lists are the streamed answer's: as many
// tool calls, or content blocks, decode; one more is an error.
func TestAnswerListBounds(t *testing.T) {
	calls := func(n int) string {
		c := strings.Repeat(`{"id":"c","function":{"name":"t","arguments":"{}"}},`, n)
		return `{"choices":[{"message":{"tool_calls":[` + strings.TrimSuffix(c, ",") + `]}}]}`
	}
	blocks := func(n int) string {
		b := strings.Repeat(`{"type":"text","text":"x"},`, n)
		return `{"type":"message","content":[` + strings.TrimSuffix(b, ",") + `]}`
	}
	if _, err := decodeOpenAI([]byte(calls(maxStreamedCalls))); err != nil {
		t.Errorf("%d tool calls: %v", maxStreamedCalls, err)
	}
	if _, err := decodeOpenAI([]byte(calls(maxStreamedCalls + 1))); err == nil {
		t.Errorf("%d tool calls: got no error", maxStreamedCalls+1)
	}
	if _, err := decodeAnthropic([]byte(blocks(maxStreamedBlocks))); err != nil {
		t.Errorf("%d blocks: %v", maxStreamedBlocks, err)
	}
	if _, err := decodeAnthropic([]byte(blocks(maxStreamedBlocks + 1))); err == nil {
		t.Errorf("%d blocks: got no error", maxStreamedBlocks+1)
	}
}

// arrayLen counts what encoding/json would decode.
func FuzzArrayLen(f *testing.F) {
	for _, s := range []string{`[]`, ` [ ] `, `[1]`, `[1,[2,3],{"a":[4,5]},"x,y\"]",null]`, `["\\",","]`, `{"a":1}`, `null`, `"[1,2]"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var items []json.RawMessage
		if !json.Valid(data) || json.Unmarshal(data, &items) != nil {
			return
		}
		if got := arrayLen(data); got != len(items) {
			t.Fatalf("arrayLen(%s) = %d, want %d", data, got, len(items))
		}
	})
}
