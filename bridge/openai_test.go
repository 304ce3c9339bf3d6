package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
)

const testKey = "sk-test-0123456789abcdef"

func newOpenAI(f *fakeProvider) *OpenAI {
	return &OpenAI{APIKey: secret.New(testKey), BaseURL: f.URL + "/v1/", Model: "gpt-test",
		HTTP: HTTPOptions{Client: f.client()}}
}

func temp(f float64) *float64 { return &f }

func TestOpenAIRequestJSON(t *testing.T) {
	f := newFake(t, reply{body: `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test-2024",
		"choices":[{"index":0,"message":{"role":"assistant","content":"Paris.","refusal":null},"logprobs":null,"finish_reason":"stop"}],
		"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}`})
	p := &mcpclient.CreateMessageParams{
		SystemPrompt:  "Be brief.",
		MaxTokens:     100,
		Temperature:   temp(0.5),
		StopSequences: []string{"END"},
		Metadata:      json.RawMessage(`{"k":"v"}`),
		Messages: []mcpclient.SamplingMessage{
			{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "Weather in Paris?"}}},
			{Role: "assistant", Content: mcpclient.ContentList{
				{Type: "text", Text: "Let me look."},
				{Type: "tool_use", ID: "call_1", Name: "weather", Input: json.RawMessage(`{"city":"Paris"}`)},
				{Type: "tool_use", ID: "call_2", Name: "time", Input: json.RawMessage(`{"tz":"CET"}`)},
			}},
			{Role: "user", Content: mcpclient.ContentList{
				{Type: "tool_result", ToolUseID: "call_1", Content: []mcpclient.Content{{Type: "text", Text: "18C"}}},
				{Type: "tool_result", ToolUseID: "call_2", IsError: true, Content: []mcpclient.Content{{Type: "text", Text: "no clock"}}},
				{Type: "text", Text: "And this picture?"},
				{Type: "image", MimeType: "image/png", Data: "iVBORw0K"},
				{Type: "audio", MimeType: "audio/wav", Data: "UklGRg=="},
			}},
			{Role: "user", Content: mcpclient.ContentList{
				{Type: "tool_result", ToolUseID: "call_3", StructuredContent: json.RawMessage(`{"n":1}`)},
			}},
			{Role: "assistant", Content: mcpclient.ContentList{}},
		},
		Tools: []*mcpclient.Tool{{Name: "weather", Description: "Weather by city",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		ToolChoice: &mcpclient.ToolChoice{Mode: "auto"},
	}
	res, err := newOpenAI(f).CreateMessage(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("got %d requests, want 1", len(reqs))
	}
	if got, want := reqs[0].path, "/v1/chat/completions"; got != want {
		t.Errorf("path: got %q, want %q", got, want)
	}
	if got, want := reqs[0].header.Get("Authorization"), "Bearer "+testKey; got != want {
		t.Errorf("Authorization: got %q, want %q", got, want)
	}
	sameJSON(t, reqs[0].body, `{
		"model": "gpt-test",
		"max_completion_tokens": 100,
		"temperature": 0.5,
		"stop": ["END"],
		"messages": [
			{"role": "system", "content": "Be brief."},
			{"role": "user", "content": "Weather in Paris?"},
			{"role": "assistant", "content": "Let me look.", "tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}},
				{"id": "call_2", "type": "function", "function": {"name": "time", "arguments": "{\"tz\":\"CET\"}"}}
			]},
			{"role": "tool", "tool_call_id": "call_1", "content": "18C"},
			{"role": "tool", "tool_call_id": "call_2", "content": "[the tool reported an error]\nno clock"},
			{"role": "user", "content": [
				{"type": "text", "text": "And this picture?"},
				{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}},
				{"type": "text", "text": "[audio content (audio/wav, 4 bytes) omitted: openai does not take it here]"}
			]},
			{"role": "tool", "tool_call_id": "call_3", "content": "{\"n\":1}"},
			{"role": "assistant", "content": ""}
		],
		"tools": [{"type": "function", "function": {"name": "weather", "description": "Weather by city",
			"parameters": {"type":"object","properties":{"city":{"type":"string"}}}}}],
		"tool_choice": "auto"
	}`)
	want := &mcpclient.CreateMessageResult{Role: "assistant", Model: "gpt-test-2024", StopReason: "endTurn",
		Content: mcpclient.ContentList{{Type: "text", Text: "Paris."}}}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
}

func TestOpenAIToolCalls(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want mcpclient.ContentList
		stop string
	}{{
		name: "one",
		body: `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,
			"tool_calls":[{"id":"call_a","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}}]},
			"finish_reason":"tool_calls"}]}`,
		want: mcpclient.ContentList{{Type: "tool_use", ID: "call_a", Name: "weather", Input: json.RawMessage(`{"city":"Oslo"}`)}},
		stop: "toolUse",
	}, {
		name: "parallel",
		body: `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Both.",
			"tool_calls":[{"id":"call_a","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}},
			{"id":"call_b","type":"function","function":{"name":"weather","arguments":""}}]},
			"finish_reason":"tool_calls"}]}`,
		want: mcpclient.ContentList{
			{Type: "text", Text: "Both."},
			{Type: "tool_use", ID: "call_a", Name: "weather", Input: json.RawMessage(`{"city":"Oslo"}`)},
			{Type: "tool_use", ID: "call_b", Name: "weather", Input: json.RawMessage(`{}`)},
		},
		stop: "toolUse",
	}, {
		name: "cut short",
		body: `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Once upon"},"finish_reason":"length"}]}`,
		want: mcpclient.ContentList{{Type: "text", Text: "Once upon"}},
		stop: "maxTokens",
	}, {
		name: "a finish reason MCP has no name for passes as it is",
		body: `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Once"},"finish_reason":"insufficient_system_resource"}]}`,
		want: mcpclient.ContentList{{Type: "text", Text: "Once"}},
		stop: "insufficient_system_resource",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, reply{body: tc.body})
			p := &mcpclient.CreateMessageParams{MaxTokens: 10,
				Messages: []mcpclient.SamplingMessage{{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "hi"}}}}}
			res, err := newOpenAI(f).CreateMessage(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, res.Content); d != "" {
				t.Errorf("content (-want +got):\n%s", d)
			}
			if res.StopReason != tc.stop {
				t.Errorf("stopReason: got %q, want %q", res.StopReason, tc.stop)
			}
		})
	}
}

func TestOpenAIToolChoiceAndHints(t *testing.T) {
	f := newFake(t, reply{body: `{"model":"m","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`})
	o := newOpenAI(f)
	o.Models = map[string]string{"fast": "gpt-mini", "smart": "gpt-large"}
	for _, tc := range []struct {
		mode, wantChoice string
		hints            []string
		wantModel        string
	}{
		{mode: "none", wantChoice: "none", hints: []string{"unknown", "smart"}, wantModel: "gpt-large"},
		{mode: "required", wantChoice: "required", hints: []string{"mini"}, wantModel: "gpt-mini"},
		{mode: "", wantChoice: "", hints: []string{"nothing"}, wantModel: "gpt-test"},
	} {
		p := &mcpclient.CreateMessageParams{MaxTokens: 5,
			Messages:   []mcpclient.SamplingMessage{{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "hi"}}}},
			Tools:      []*mcpclient.Tool{{Name: "t"}},
			ToolChoice: &mcpclient.ToolChoice{Mode: tc.mode},
		}
		p.ModelPreferences = &mcpclient.ModelPreferences{}
		for _, h := range tc.hints {
			p.ModelPreferences.Hints = append(p.ModelPreferences.Hints, mcpclient.ModelHint{Name: h})
		}
		if _, err := o.CreateMessage(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		reqs := f.requests()
		var got struct {
			Model      string `json:"model"`
			ToolChoice string `json:"tool_choice"`
			Tools      []struct {
				Function struct {
					Parameters json.RawMessage `json:"parameters"`
				} `json:"function"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(reqs[len(reqs)-1].body, &got); err != nil {
			t.Fatal(err)
		}
		if got.Model != tc.wantModel || got.ToolChoice != tc.wantChoice {
			t.Errorf("mode %q hints %q: got model %q choice %q, want %q %q", tc.mode, tc.hints, got.Model, got.ToolChoice, tc.wantModel, tc.wantChoice)
		}
		if s := string(got.Tools[0].Function.Parameters); s != `{"type":"object","properties":{}}` {
			t.Errorf("a tool without schema: got parameters %s, want an empty object schema", s)
		}
	}
}

func TestSamplingRequiredWithoutToolCall(t *testing.T) {
	f := newFake(t, reply{body: `{"model":"m","choices":[{"message":{"content":"I'd rather not"},"finish_reason":"stop"}]}`})
	p := &mcpclient.CreateMessageParams{MaxTokens: 5,
		Messages:   []mcpclient.SamplingMessage{{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "hi"}}}},
		Tools:      []*mcpclient.Tool{{Name: "t"}},
		ToolChoice: &mcpclient.ToolChoice{Mode: "required"},
	}
	_, err := Sampling(newOpenAI(f))(context.Background(), p)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError || !strings.Contains(rpcErr.Message, "required") {
		t.Fatalf("got %v, want an internal error about the required tool choice", err)
	}
}

// A 429 with a short Retry-After is retried after that wait, not sooner.
func TestOpenAIRetryAfterHonoured(t *testing.T) {
	inBubble(t, testOpenAIRetryAfterHonoured)
}

func testOpenAIRetryAfterHonoured(t *testing.T) {
	f := newMemFake(
		reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: `{"error":{"message":"slow down"}}`},
		reply{body: `{"model":"m","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`})
	p := &mcpclient.CreateMessageParams{MaxTokens: 5,
		Messages: []mcpclient.SamplingMessage{{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "hi"}}}}}
	start := time.Now()
	res, err := newOpenAI(f).CreateMessage(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("retried after %v, want at least the 1s Retry-After", d)
	}
	if res.Content[0].Text != "ok" {
		t.Errorf("got %q, want ok", res.Content[0].Text)
	}
	// A wait past the context's deadline fails at once.
	f2 := newMemFake(reply{status: 429, header: map[string]string{"Retry-After": "5"}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start = time.Now()
	_, err = newOpenAI(f2).CreateMessage(ctx, p)
	if err == nil || time.Since(start) > time.Second {
		t.Errorf("got %v after %v, want an error at once", err, time.Since(start))
	}
}

// Time-outs and cancellation: an attempt that takes too long is an error
// for the server; a cancelled request ends with the context's error.
func TestOpenAITimeoutAndCancel(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	f := newFake(t, reply{body: "{}"})
	f.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	})
	o := newOpenAI(f)
	o.HTTP = HTTPOptions{Timeout: 50 * time.Millisecond, MaxRetries: -1}
	p := &mcpclient.CreateMessageParams{MaxTokens: 5,
		Messages: []mcpclient.SamplingMessage{{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "hi"}}}}}
	_, err := o.CreateMessage(context.Background(), p)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || !strings.Contains(rpcErr.Message, "no answer within 50ms") {
		t.Errorf("got %v, want a timeout error", err)
	}
	o.HTTP = HTTPOptions{}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := o.CreateMessage(ctx, p); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the context's error", err)
	}
}
