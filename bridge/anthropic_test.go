package bridge

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
)

func newAnthropic(f *fakeProvider) *Anthropic {
	return &Anthropic{APIKey: secret.New(testKey), BaseURL: f.URL + "/", Model: "claude-test",
		HTTP: HTTPOptions{Client: f.client()}}
}

func TestAnthropicRequestJSON(t *testing.T) {
	f := newFake(t, reply{body: `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test-2025",
		"content":[{"type":"thinking","thinking":"hmm","signature":"x"},{"type":"text","text":"Paris."}],
		"stop_reason":"stop_sequence","stop_sequence":"END","usage":{"input_tokens":10,"output_tokens":2}}`})
	p := &mcpclient.CreateMessageParams{
		SystemPrompt:  "Be brief.",
		Temperature:   temp(0.2),
		StopSequences: []string{"END"},
		Messages: []mcpclient.SamplingMessage{
			{Role: "user", Content: mcpclient.ContentList{
				{Type: "text", Text: "Look:"},
				{Type: "image", MimeType: "image/png", Data: "iVBORw0K"},
				{Type: "image", MimeType: "image/tiff", Data: "SUkq"},
			}},
			{Role: "assistant", Content: mcpclient.ContentList{
				{Type: "text", Text: "Checking."},
				{Type: "tool_use", ID: "toolu_1", Name: "weather", Input: json.RawMessage(`{"city":"Paris"}`)},
				{Type: "tool_use", ID: "toolu_2", Name: "clock"},
			}},
			{Role: "user", Content: mcpclient.ContentList{
				{Type: "text", Text: "Here:"},
				{Type: "tool_result", ToolUseID: "toolu_1", Content: []mcpclient.Content{
					{Type: "text", Text: "18C"}, {Type: "image", MimeType: "image/jpeg", Data: "/9j/"}}},
				{Type: "tool_result", ToolUseID: "toolu_2", IsError: true, StructuredContent: json.RawMessage(`{"err":"down"}`)},
			}},
		},
		Tools: []*mcpclient.Tool{{Name: "weather", Description: "Weather by city",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		ToolChoice: &mcpclient.ToolChoice{Mode: "required"},
	}
	res, err := newAnthropic(f).CreateMessage(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("got %d requests, want 1", len(reqs))
	}
	for _, h := range [][2]string{{"x-api-key", testKey}, {"anthropic-version", "2023-06-01"}, {"Authorization", ""}} {
		if got := reqs[0].header.Get(h[0]); got != h[1] {
			t.Errorf("%s: got %q, want %q", h[0], got, h[1])
		}
	}
	if got, want := reqs[0].path, "/v1/messages"; got != want {
		t.Errorf("path: got %q, want %q", got, want)
	}
	sameJSON(t, reqs[0].body, `{
		"model": "claude-test",
		"max_tokens": 1024,
		"system": "Be brief.",
		"temperature": 0.2,
		"stop_sequences": ["END"],
		"messages": [
			{"role": "user", "content": [
				{"type": "text", "text": "Look:"},
				{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"}},
				{"type": "text", "text": "[image content (image/tiff, 3 bytes) omitted: anthropic does not take it here]"}
			]},
			{"role": "assistant", "content": [
				{"type": "text", "text": "Checking."},
				{"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Paris"}},
				{"type": "tool_use", "id": "toolu_2", "name": "clock", "input": {}}
			]},
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
					{"type": "text", "text": "18C"},
					{"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/"}}
				]},
				{"type": "tool_result", "tool_use_id": "toolu_2", "is_error": true, "content": [
					{"type": "text", "text": "{\"err\":\"down\"}"}
				]},
				{"type": "text", "text": "Here:"}
			]}
		],
		"tools": [{"name": "weather", "description": "Weather by city",
			"input_schema": {"type":"object","properties":{"city":{"type":"string"}}}}],
		"tool_choice": {"type": "any"}
	}`)
	want := &mcpclient.CreateMessageResult{Role: "assistant", Model: "claude-test-2025", StopReason: "stopSequence",
		Content: mcpclient.ContentList{{Type: "text", Text: "Paris."}}}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
}

func TestAnthropicToolUse(t *testing.T) {
	f := newFake(t, reply{body: `{"id":"msg_2","type":"message","role":"assistant","model":"claude-test",
		"content":[{"type":"text","text":"Both."},
			{"type":"tool_use","id":"toolu_a","name":"weather","input":{"city":"Oslo"}},
			{"type":"tool_use","id":"toolu_b","name":"weather","input":{"city":"Rome"}}],
		"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`})
	a := newAnthropic(f)
	a.Models = map[string]string{"haiku": "claude-haiku-x"}
	p := &mcpclient.CreateMessageParams{MaxTokens: 50,
		ModelPreferences: &mcpclient.ModelPreferences{Hints: []mcpclient.ModelHint{{Name: "haiku"}}},
		Messages:         []mcpclient.SamplingMessage{{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "hi"}}}},
		Tools:            []*mcpclient.Tool{{Name: "weather"}},
		ToolChoice:       &mcpclient.ToolChoice{Mode: "none"},
	}
	res, err := Sampling(a)(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	want := mcpclient.ContentList{
		{Type: "text", Text: "Both."},
		{Type: "tool_use", ID: "toolu_a", Name: "weather", Input: json.RawMessage(`{"city":"Oslo"}`)},
		{Type: "tool_use", ID: "toolu_b", Name: "weather", Input: json.RawMessage(`{"city":"Rome"}`)},
	}
	if d := cmp.Diff(want, res.Content); d != "" {
		t.Errorf("content (-want +got):\n%s", d)
	}
	if res.StopReason != "toolUse" {
		t.Errorf("stopReason: got %q, want toolUse", res.StopReason)
	}
	var got struct {
		Model      string          `json:"model"`
		MaxTokens  int             `json:"max_tokens"`
		ToolChoice json.RawMessage `json:"tool_choice"`
	}
	if err := json.Unmarshal(f.requests()[0].body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Model != "claude-haiku-x" || got.MaxTokens != 50 || string(got.ToolChoice) != `{"type":"none"}` {
		t.Errorf("got model %q, max_tokens %d, tool_choice %s; want claude-haiku-x, 50, {\"type\":\"none\"}", got.Model, got.MaxTokens, got.ToolChoice)
	}
}

func TestAnthropicErrors(t *testing.T) {
	checkErrors(t, func(f *fakeProvider) Model { return newAnthropic(f) }, []errorCase{{
		name:     "refused key",
		replies:  []reply{{status: 401, body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ` + testKey + `"}}`}},
		message:  "anthropic: the provider refused the API key (HTTP 401)",
		requests: 1,
	}, {
		name: "overloaded, then answered",
		replies: []reply{{status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
			{body: `{"type":"message","model":"m","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn"}`}},
		requests: 2,
	}, {
		name:     "rate limited past the bound",
		replies:  []reply{{status: 429, header: map[string]string{"Retry-After": "0"}, body: `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`}},
		message:  `anthropic: rate limited (HTTP 429), retry after 0s: "Number of request tokens`,
		requests: 3,
	}, {
		name:     "not a message",
		replies:  []reply{{body: `{"type":"completion"}`}},
		message:  `anthropic: malformed response: type "completion"`,
		requests: 1,
	}, {
		name:     "input not an object",
		replies:  []reply{{body: `{"type":"message","content":[{"type":"tool_use","id":"t","name":"x","input":[1]}],"stop_reason":"tool_use"}`}},
		message:  `tool use "x": input is not a JSON object`,
		requests: 1,
	}})
}
