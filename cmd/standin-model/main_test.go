package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/bridge"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
)

func user(text string) mcpclient.SamplingMessage {
	return mcpclient.SamplingMessage{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: text}}}
}

// The script, through the real OpenAI adapter.
func TestScript(t *testing.T) {
	srv := httptest.NewServer(handler())
	defer srv.Close()
	model := &bridge.OpenAI{APIKey: secret.New("k"), BaseURL: srv.URL + "/v1", Model: "standin"}
	tools := []*mcpclient.Tool{{Name: "mcp__demo__echo"}, {Name: "mcp__demo__add"}}
	for _, tc := range []struct {
		name  string
		p     *mcpclient.CreateMessageParams
		want  mcpclient.ContentList
		reply string
	}{{
		name:  "no tools",
		p:     &mcpclient.CreateMessageParams{Messages: []mcpclient.SamplingMessage{user("Say hi")}},
		want:  mcpclient.ContentList{{Type: "text", Text: "stand-in model: Say hi"}},
		reply: "endTurn",
	}, {
		name:  "two numbers and add",
		p:     &mcpclient.CreateMessageParams{Messages: []mcpclient.SamplingMessage{user("What is 2 + 40?")}, Tools: tools},
		want:  mcpclient.ContentList{{Type: "tool_use", ID: "call_standin_1", Name: "mcp__demo__add", Input: json.RawMessage(`{"a":2,"b":40}`)}},
		reply: "toolUse",
	}, {
		name:  "echo otherwise",
		p:     &mcpclient.CreateMessageParams{Messages: []mcpclient.SamplingMessage{user("Hello")}, Tools: tools},
		want:  mcpclient.ContentList{{Type: "tool_use", ID: "call_standin_1", Name: "mcp__demo__echo", Input: json.RawMessage(`{"text":"Hello"}`)}},
		reply: "toolUse",
	}, {
		name: "add, and log when asked to",
		p: &mcpclient.CreateMessageParams{Messages: []mcpclient.SamplingMessage{user("What is 2 + 40? Log it.")},
			Tools: append(tools, &mcpclient.Tool{Name: "mcp__demo__log"})},
		want: mcpclient.ContentList{
			{Type: "tool_use", ID: "call_standin_1", Name: "mcp__demo__add", Input: json.RawMessage(`{"a":2,"b":40}`)},
			{Type: "tool_use", ID: "call_standin_2", Name: "mcp__demo__log", Input: json.RawMessage(`{"message":"What is 2 + 40? Log it."}`)}},
		reply: "toolUse",
	}, {
		name: "tool results",
		p: &mcpclient.CreateMessageParams{Tools: tools, Messages: []mcpclient.SamplingMessage{
			user("What is 2 + 40?"),
			{Role: "assistant", Content: mcpclient.ContentList{{Type: "tool_use", ID: "c1", Name: "mcp__demo__add", Input: json.RawMessage(`{"a":2,"b":40}`)}}},
			{Role: "user", Content: mcpclient.ContentList{{Type: "tool_result", ToolUseID: "c1", Content: []mcpclient.Content{{Type: "text", Text: "42"}}}}},
		}},
		want:  mcpclient.ContentList{{Type: "text", Text: "The tools said: 42"}},
		reply: "endTurn",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := model.CreateMessage(context.Background(), tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, res.Content); d != "" {
				t.Errorf("content (-want +got):\n%s", d)
			}
			if res.StopReason != tc.reply || res.Model != "standin-scripted" {
				t.Errorf("got %s from %q, want %s from standin-scripted", res.StopReason, res.Model, tc.reply)
			}
		})
	}
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader("{oops"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a body that is not JSON: got %d, want 400", resp.StatusCode)
	}
}

// run passes the command the stand-in's address and an empty key, and
// returns the command's exit status.
func TestRunCommand(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	t.Setenv("OPENAI_API_KEY", "sk-real")
	script := `case "$OPENAI_BASE_URL" in http://127.0.0.1:*/v1) ;; *) exit 9;; esac; [ -z "$OPENAI_API_KEY" ] || exit 8; exit 3`
	if code := run(context.Background(), "127.0.0.1:0", []string{"sh", "-c", script}); code != 3 {
		t.Errorf("got exit status %d, want 3 (9: no base URL, 8: the real key)", code)
	}
}
