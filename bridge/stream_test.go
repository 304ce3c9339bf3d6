package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

var sse = map[string]string{"Content-Type": "text/event-stream; charset=utf-8"}

func hi() *mcpclient.CreateMessageParams {
	return &mcpclient.CreateMessageParams{MaxTokens: 20,
		Messages: []mcpclient.SamplingMessage{{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "hi"}}}}}
}

// collect returns a context that streams, and the pieces it got.
func collect() (context.Context, *[]string) {
	var pieces []string
	return WithStream(context.Background(), func(s string) { pieces = append(pieces, s) }), &pieces
}

const openAIStream = `data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}

: a comment line, ignored
data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"content":"lo."},"finish_reason":null}]}

data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"weather","arguments":""}}]},"finish_reason":null}]}

data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]},"finish_reason":null}]}

data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Oslo\"}"}}]},"finish_reason":null}]}

data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`

func TestOpenAIStream(t *testing.T) {
	f := newFake(t, reply{header: sse, body: openAIStream})
	ctx, pieces := collect()
	res, err := newOpenAI(f).CreateMessage(ctx, hi())
	if err != nil {
		t.Fatal(err)
	}
	req := f.requests()[0]
	var body struct {
		Stream bool `json:"stream"`
	}
	json.Unmarshal(req.body, &body)
	if !body.Stream || req.header.Get("Accept") != "text/event-stream" {
		t.Errorf("the request did not ask for a stream: %s (Accept %q)", req.body, req.header.Get("Accept"))
	}
	if d := cmp.Diff([]string{"Hel", "lo."}, *pieces); d != "" {
		t.Errorf("streamed text (-want +got):\n%s", d)
	}
	want := &mcpclient.CreateMessageResult{Role: "assistant", Model: "gpt-test", StopReason: "toolUse", Content: mcpclient.ContentList{
		{Type: "text", Text: "Hello."},
		{Type: "tool_use", ID: "call_1", Name: "weather", Input: json.RawMessage(`{"city":"Oslo"}`)},
	}}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
}

const anthropicStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" Oslo."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Os"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"lo\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":20}}

event: message_stop
data: {"type":"message_stop"}

`

func TestAnthropicStream(t *testing.T) {
	f := newFake(t, reply{header: sse, body: anthropicStream})
	ctx, pieces := collect()
	res, err := newAnthropic(f).CreateMessage(ctx, hi())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(f.requests()[0].body), `"stream":true`) {
		t.Errorf("the request did not ask for a stream: %s", f.requests()[0].body)
	}
	if d := cmp.Diff([]string{"Checking", " Oslo."}, *pieces); d != "" {
		t.Errorf("streamed text (-want +got):\n%s", d)
	}
	want := &mcpclient.CreateMessageResult{Role: "assistant", Model: "claude-test", StopReason: "toolUse", Content: mcpclient.ContentList{
		{Type: "text", Text: "Checking Oslo."},
		{Type: "tool_use", ID: "toolu_1", Name: "weather", Input: json.RawMessage(`{"city": "Oslo"}`)},
	}}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
}

func TestStreamFailures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model func(*fakeProvider) Model
		reply reply
		err   string // part of the error; "" means an answer
		text  []string
	}{{
		name:  "openai: cut short",
		model: func(f *fakeProvider) Model { return newOpenAI(f) },
		reply: reply{header: sse, body: openAIStream[:strings.Index(openAIStream, `data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{},`)]},
		err:   "openai: malformed response: the stream ended before the answer did",
		text:  []string{"Hel", "lo."},
	}, {
		name:  "openai: error chunk",
		model: func(f *fakeProvider) Model { return newOpenAI(f) },
		reply: reply{header: sse, body: "data: {\"error\":{\"message\":\"server overloaded\"}}\n\n"},
		err:   `the provider failed mid-stream: "server overloaded"`,
	}, {
		name:  "openai: a whole body instead of a stream",
		model: func(f *fakeProvider) Model { return newOpenAI(f) },
		reply: reply{body: `{"model":"m","choices":[{"message":{"content":"All at once."},"finish_reason":"stop"}]}`},
		text:  []string{"All at once."},
	}, {
		name:  "anthropic: overloaded mid-stream",
		model: func(f *fakeProvider) Model { return newAnthropic(f) },
		reply: reply{header: sse, body: anthropicStream[:strings.Index(anthropicStream, "event: content_block_stop")] +
			"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"},
		err:  `anthropic: malformed response: the provider failed mid-stream: "overloaded_error: Overloaded"`,
		text: []string{"Checking", " Oslo."},
	}, {
		name:  "anthropic: delta for a block never started",
		model: func(f *fakeProvider) Model { return newAnthropic(f) },
		reply: reply{header: sse, body: "data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n"},
		err:   "content block 3 was not started",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.reply)
			ctx, pieces := collect()
			_, err := tc.model(f).CreateMessage(ctx, hi())
			if d := cmp.Diff(tc.text, *pieces); d != "" {
				t.Errorf("streamed text (-want +got):\n%s", d)
			}
			if tc.err == "" {
				if err != nil {
					t.Fatalf("got %v, want an answer", err)
				}
				return
			}
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || !strings.Contains(rpcErr.Message, tc.err) {
				t.Fatalf("got %v, want a *jsonrpc.Error containing %q", err, tc.err)
			}
			if len(f.requests()) != 1 {
				t.Errorf("a broken stream was retried: %d requests", len(f.requests()))
			}
		})
	}
}
