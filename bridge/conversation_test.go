package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// A second Run continues the first: its transcript begins with the
// first's, and the model reads the whole conversation.
func TestRunContinuesAConversation(t *testing.T) {
	reg := newRegistry(t, &toolreg.Options{})
	f := newFake(t, toolCalls([3]string{"c1", "mcp__demo__add", `{"a":2,"b":40}`}), answer("42."))
	first, err := Run(context.Background(), newOpenAI(f), reg, "What is 2 + 40?", nil)
	if err != nil {
		t.Fatal(err)
	}
	g := newFake(t, answer("You asked about 2 + 40."))
	second, err := Run(context.Background(), newOpenAI(g), reg, "What did I ask?", &RunOptions{History: first.Messages})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(first.Messages, second.Messages[:len(first.Messages)]); d != "" {
		t.Errorf("the second transcript does not begin with the first (-first +second):\n%s", d)
	}
	if len(second.Messages) != len(first.Messages)+2 || second.Turns != 1 {
		t.Errorf("got %d messages and %d turns, want %d and 1", len(second.Messages), second.Turns, len(first.Messages)+2)
	}
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(g.requests()[0].body, &req)
	var roles []string
	for _, m := range req.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, " "); got != "user assistant tool assistant user" {
		t.Errorf("the model read roles %q, want the first run's then the new question", got)
	}
}

// A history that ends with tool calls never answered (a run cut short)
// gets them answered as not run, before the question; a history that
// ends in a user turn takes the question into that turn.
func TestStartMessages(t *testing.T) {
	q := mcpclient.Content{Type: "text", Text: "next"}
	use := mcpclient.Content{Type: "tool_use", ID: "u1", Name: "mcp__demo__add", Input: json.RawMessage(`{}`)}
	asked := mcpclient.SamplingMessage{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "first"}}}
	calling := mcpclient.SamplingMessage{Role: "assistant", Content: mcpclient.ContentList{use}}

	got := startMessages([]mcpclient.SamplingMessage{asked, calling}, "next")
	if len(got) != 3 || got[2].Role != "user" || len(got[2].Content) != 2 ||
		got[2].Content[0].Type != "tool_result" || got[2].Content[0].ToolUseID != "u1" || !got[2].Content[0].IsError ||
		!cmp.Equal(got[2].Content[1], q) {
		t.Errorf("after unanswered calls: got %+v", got)
	}
	got = startMessages([]mcpclient.SamplingMessage{asked}, "next")
	if len(got) != 1 || len(got[0].Content) != 2 || !cmp.Equal(got[0].Content[1], q) {
		t.Errorf("after a user turn: got %+v", got)
	}
	if len(asked.Content) != 1 {
		t.Errorf("the caller's history was changed")
	}
	got = startMessages(nil, "next")
	if len(got) != 1 || got[0].Role != "user" || !cmp.Equal(got[0].Content[0], q) {
		t.Errorf("no history: got %+v", got)
	}
}

// With NoStream, OnText gets each turn's text whole and the provider is
// not asked to stream.
func TestRunNoStream(t *testing.T) {
	reg := newRegistry(t, &toolreg.Options{})
	f := newFake(t, answer("Whole."))
	var pieces []string
	if _, err := Run(context.Background(), newOpenAI(f), reg, "Hi", &RunOptions{NoStream: true, OnText: func(s string) { pieces = append(pieces, s) }}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(pieces, "|") != "Whole." || strings.Contains(string(f.requests()[0].body), `"stream"`) {
		t.Errorf("got pieces %q, request %s; want the whole text and no stream", pieces, f.requests()[0].body)
	}
}
