package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// newRegistry returns a registry of one in-memory demo server named
// "demo", closed (and the server awaited) when the test ends.
func newRegistry(t *testing.T, opts *toolreg.Options) *toolreg.Registry {
	t.Helper()
	var wg sync.WaitGroup
	o := *opts
	o.Dial = func(ctx context.Context, sc *toolreg.ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		srv := demoserver.New(&demoserver.Options{Name: sc.Name})
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv.Serve(context.Background(), server)
		}()
		return mcpclient.Connect(ctx, client, so)
	}
	cfg := &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "demo", Type: "memory"}}}
	reg, err := toolreg.New(context.Background(), cfg, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close(); wg.Wait() })
	return reg
}

// toolCalls is a Chat Completions answer calling the given tools, each
// as {id, name, arguments}.
func toolCalls(calls ...[3]string) reply {
	var parts []string
	for _, c := range calls {
		args, _ := json.Marshal(c[2])
		parts = append(parts, fmt.Sprintf(`{"id":%q,"type":"function","function":{"name":%q,"arguments":%s}}`, c[0], c[1], args))
	}
	return reply{body: `{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[` +
		strings.Join(parts, ",") + `]},"finish_reason":"tool_calls"}]}`}
}

func answer(text string) reply {
	return reply{body: fmt.Sprintf(`{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, text)}
}

// toolMessages returns the "tool" messages of a Chat Completions request.
func toolMessages(t *testing.T, body []byte) map[string]string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

// The model calls three tools in one turn: they run at once (the approver
// lets none through until all three have arrived), an unknown one and a
// failing one come back to the model as errors, and the model's next
// turn ends the run.
func TestRunParallelToolCalls(t *testing.T) {
	leakcheck.Check(t)
	var mu sync.Mutex
	arrived, all := 0, make(chan struct{})
	var approved []string
	reg := newRegistry(t, &toolreg.Options{Approve: func(ctx context.Context, c toolreg.Call) error {
		mu.Lock()
		approved = append(approved, c.Name)
		if arrived++; arrived == 2 {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return nil
		case <-time.After(5 * time.Second):
			return errors.New("the calls did not run concurrently")
		}
	}})
	f := newFake(t,
		toolCalls([3]string{"c1", "mcp__demo__add", `{"a":2,"b":40}`}, [3]string{"c2", "mcp__demo__fail", `{}`}, [3]string{"c3", "mcp__demo__nope", `{}`}),
		answer("The sum is 42."))
	var seen []string
	tr, err := Run(context.Background(), newOpenAI(f), reg, "What is 2+40?", &RunOptions{TrustAnnotations: trustAll,
		OnTool: func(use, result mcpclient.Content) {
			seen = append(seen, fmt.Sprintf("%s %s error=%v", use.ID, use.Name, result.IsError))
		}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Answer != "The sum is 42." || tr.Turns != 2 || tr.StopReason != "endTurn" || len(tr.Messages) != 4 {
		t.Errorf("got answer %q after %d turns (%s), %d messages; want the sum after 2 turns, 4 messages", tr.Answer, tr.Turns, tr.StopReason, len(tr.Messages))
	}
	if len(approved) != 2 {
		t.Errorf("approver saw %q, want the two known tools", approved)
	}
	want := []string{"c1 mcp__demo__add error=false", "c2 mcp__demo__fail error=true", "c3 mcp__demo__nope error=true"}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("OnTool (-want +got):\n%s", d)
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d model requests, want 2", len(reqs))
	}
	if !strings.Contains(string(reqs[0].body), `"name":"mcp__demo__add"`) {
		t.Errorf("the first request does not offer the registry's tools: %s", reqs[0].body)
	}
	tools := toolMessages(t, reqs[1].body)
	if got := tools["c1"]; got != "42" {
		t.Errorf("add's result: got %q, want 42", got)
	}
	if got := tools["c2"]; !strings.HasPrefix(got, "[the tool reported an error]") {
		t.Errorf("fail's result: got %q, want it marked as an error", got)
	}
	if got := tools["c3"]; !strings.Contains(got, "mcp__demo__nope") {
		t.Errorf("unknown tool's result: got %q, want the registry's error naming it", got)
	}
}

// With OnText, each turn's text is streamed as it comes, and the
// transcript is the same as without.
func TestRunStreamsText(t *testing.T) {
	reg := newRegistry(t, &toolreg.Options{})
	f := newFake(t, toolCalls([3]string{"c1", "mcp__demo__add", `{"a":2,"b":40}`}), reply{header: sse, body: `data: {"model":"gpt-test","choices":[{"index":0,"delta":{"content":"The sum "}}]}

data: {"model":"gpt-test","choices":[{"index":0,"delta":{"content":"is 42."},"finish_reason":"stop"}]}

data: [DONE]

`})
	var pieces []string
	tr, err := Run(context.Background(), newOpenAI(f), reg, "What is 2+40?", &RunOptions{OnText: func(s string) { pieces = append(pieces, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"The sum ", "is 42."}, pieces); d != "" {
		t.Errorf("streamed text (-want +got):\n%s", d)
	}
	if tr.Answer != "The sum is 42." || tr.StopReason != "endTurn" {
		t.Errorf("got %q (%s), want the whole answer (endTurn)", tr.Answer, tr.StopReason)
	}
	for i, r := range f.requests() {
		if !strings.Contains(string(r.body), `"stream":true`) {
			t.Errorf("request %d did not ask for a stream", i)
		}
	}
}

// A result larger than the cap reaches the model as its summary, cut.
func TestRunCapsToolResults(t *testing.T) {
	reg := newRegistry(t, &toolreg.Options{})
	f := newFake(t, toolCalls([3]string{"c1", "mcp__demo__big", `{"bytes":100000}`}), answer("big"))
	if _, err := Run(context.Background(), newOpenAI(f), reg, "Be big", &RunOptions{MaxResultBytes: 500, TrustAnnotations: trustAll}); err != nil {
		t.Fatal(err)
	}
	got := toolMessages(t, f.requests()[1].body)["c1"]
	if len(got) > 500 || len(got) < 100 {
		t.Errorf("the capped result is %d bytes, want at most 500 and more than a note", len(got))
	}
}

// A model that keeps calling tools stops at the turn limit, with the
// transcript so far.
func TestRunTurnLimit(t *testing.T) {
	reg := newRegistry(t, &toolreg.Options{})
	f := newFake(t, toolCalls([3]string{"c1", "mcp__demo__echo", `{"text":"again"}`}))
	tr, err := Run(context.Background(), newOpenAI(f), reg, "Loop", &RunOptions{MaxTurns: 2})
	if !errors.Is(err, ErrTurnLimit) {
		t.Fatalf("got %v, want ErrTurnLimit", err)
	}
	if len(f.requests()) != 2 || tr.Turns != 2 || len(tr.Messages) != 5 {
		t.Errorf("got %d requests, %d turns, %d messages; want 2, 2, 5", len(f.requests()), tr.Turns, len(tr.Messages))
	}
}

// Cancelling the context ends a run that waits on a tool.
func TestRunCancelled(t *testing.T) {
	leakcheck.Check(t)
	reg := newRegistry(t, &toolreg.Options{})
	f := newFake(t, toolCalls([3]string{"c1", "mcp__demo__slow", `{"steps":100,"delayMs":100}`}), answer("never"))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Run(ctx, newOpenAI(f), reg, "Wait", &RunOptions{TrustAnnotations: trustAll})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("got %v after %v, want the context's error soon", err, time.Since(start))
	}
}

func TestToolExport(t *testing.T) {
	tools := []toolreg.Tool{{Name: "mcp__demo__add", Server: "demo", Def: &mcpclient.Tool{Name: "add", Description: "Adds",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"}}}`)}}}
	oa, _ := json.Marshal(openAIToolsOf(tools))
	sameJSON(t, oa, `[{"type":"function","function":{"name":"mcp__demo__add","description":"Adds",
		"parameters":{"type":"object","properties":{"a":{"type":"number"}}}}}]`)
	an, _ := json.Marshal(anthropicToolsOf(tools))
	sameJSON(t, an, `[{"name":"mcp__demo__add","description":"Adds",
		"input_schema":{"type":"object","properties":{"a":{"type":"number"}}}}]`)
}
