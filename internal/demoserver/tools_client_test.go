package demoserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// codeUserRejected is MCP's error code for a sampling request the user declined.
const codeUserRejected = -1

// recorder is a client-side handler that records the server's requests and
// answers each method with a fixed result or error.
type recorder struct {
	answers map[string]any
	got     chan *jsonrpc.Request
}

func newRecorder(answers map[string]any) *recorder {
	return &recorder{answers: answers, got: make(chan *jsonrpc.Request, 10)}
}

func (r *recorder) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	r.got <- req
	a, ok := r.answers[req.Method]
	if !ok {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "no %s here", req.Method)
	}
	if err, ok := a.(error); ok {
		return nil, err
	}
	return a, nil
}

func (r *recorder) request(t *testing.T) *jsonrpc.Request {
	t.Helper()
	select {
	case req := <-r.got:
		return req
	default:
		t.Fatal("the server sent no request to the client")
		return nil
	}
}

func TestSampleTool(t *testing.T) {
	rec := newRecorder(map[string]any{
		"sampling/createMessage": json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"hello there"},"model":"test-model","stopReason":"endTurn"}`),
	})
	c := startInitialized(t, nil, rec.handle, `{"sampling":{}}`)
	res := c.mustCallTool("sample", `{"prompt":"say hello"}`)
	if got := res.text(t); got != "model said: hello there" || res.IsError {
		t.Errorf("result %q (isError %v)", got, res.IsError)
	}
	if got := string(res.StructuredContent); got != `{"model":"test-model","stopReason":"endTurn","text":"hello there"}` {
		t.Errorf("structuredContent = %s", got)
	}
	req := rec.request(t)
	var p struct {
		Messages []struct {
			Role    string
			Content struct{ Type, Text string }
		}
		MaxTokens    int
		SystemPrompt string
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		t.Fatal(err)
	}
	if req.Method != "sampling/createMessage" || len(p.Messages) != 1 || p.Messages[0].Role != "user" ||
		p.Messages[0].Content.Type != "text" || p.Messages[0].Content.Text != "say hello" || p.MaxTokens != 100 || p.SystemPrompt == "" {
		t.Errorf("request %s %s", req.Method, req.Params)
	}
}

func TestSampleToolContentArray(t *testing.T) {
	rec := newRecorder(map[string]any{
		"sampling/createMessage": json.RawMessage(`{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"image","data":"","mimeType":"image/png"}],"model":"m"}`),
	})
	c := startInitialized(t, nil, rec.handle, `{"sampling":{}}`)
	if got := c.mustCallTool("sample", `{"prompt":"p"}`).text(t); got != "model said: a [image]" {
		t.Errorf("result %q", got)
	}
}

func TestClientToolsFailAsTools(t *testing.T) {
	for _, tc := range []struct {
		name, tool, args, caps, want string
		answers                      map[string]any
	}{
		{"no sampling", "sample", `{"prompt":"p"}`, `{}`, "sampling capability", nil},
		{"no elicitation", "elicit", `{"message":"m"}`, `{"sampling":{}}`, "elicitation capability", nil},
		{"url elicitation only", "elicit", `{"message":"m"}`, `{"elicitation":{"url":{}}}`, "elicitation capability", nil},
		{"no roots", "roots", ``, `{}`, "roots capability", nil},
		{"sampling rejected", "sample", `{"prompt":"p"}`, `{"sampling":{}}`, "user said no",
			map[string]any{"sampling/createMessage": jsonrpc.NewError(codeUserRejected, "user said no")}},
		{"roots failed", "roots", ``, `{"roots":{}}`, "listing roots failed",
			map[string]any{"roots/list": jsonrpc.NewError(jsonrpc.CodeInternalError, "oops")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startInitialized(t, nil, newRecorder(tc.answers).handle, tc.caps)
			res := c.mustCallTool(tc.tool, tc.args)
			if got := res.text(t); !res.IsError || !strings.Contains(got, tc.want) {
				t.Errorf("result %q (isError %v), want a tool error mentioning %q", got, res.IsError, tc.want)
			}
		})
	}
}

func TestElicitTool(t *testing.T) {
	for _, tc := range []struct {
		version, caps, answer, text, mode string
	}{
		{"2025-11-25", `{"elicitation":{}}`, `{"action":"accept","content":{"name":"Ada","age":36}}`, `action: accept, content: {"age":36,"name":"Ada"}`, "form"},
		{"2025-11-25", `{"elicitation":{"form":{},"url":{}}}`, `{"action":"decline"}`, `action: decline`, "form"},
		{"2025-06-18", `{"elicitation":{}}`, `{"action":"cancel"}`, `action: cancel`, ""},
	} {
		t.Run(tc.version+tc.answer, func(t *testing.T) {
			rec := newRecorder(map[string]any{"elicitation/create": json.RawMessage(tc.answer)})
			c := start(t, nil, rec.handle)
			c.initialize(tc.version, tc.caps)
			res := c.mustCallTool("elicit", `{"message":"Who are you?"}`)
			if got := res.text(t); got != tc.text {
				t.Errorf("result %q, want %q", got, tc.text)
			}
			var p struct {
				Mode            *string
				Message         string
				RequestedSchema json.RawMessage
			}
			req := rec.request(t)
			json.Unmarshal(req.Params, &p)
			if p.Message != "Who are you?" || string(p.RequestedSchema) != string(elicitSchema) {
				t.Errorf("request %s", req.Params)
			}
			if mode := p.Mode; (mode == nil) != (tc.mode == "") || (mode != nil && *mode != tc.mode) {
				t.Errorf("mode in %s, want %q", req.Params, tc.mode)
			}
		})
	}
}

func TestRootsTool(t *testing.T) {
	for _, tc := range []struct{ answer, want string }{
		{`{"roots":[{"uri":"file:///a","name":"a"},{"uri":"file:///b"}]}`, "file:///a\nfile:///b"},
		{`{"roots":[]}`, "no roots"},
	} {
		rec := newRecorder(map[string]any{"roots/list": json.RawMessage(tc.answer)})
		c := startInitialized(t, nil, rec.handle, `{"roots":{"listChanged":true}}`)
		if got := c.mustCallTool("roots", "").text(t); got != tc.want {
			t.Errorf("roots = %q, want %q", got, tc.want)
		}
	}
}

func TestSamplingText(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`{"type":"text","text":"hi"}`, "hi"},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, "a b"},
		{`{"type":"audio","data":"","mimeType":"audio/wav"}`, "[audio]"},
		{``, ""},
		{`"not a block"`, ""},
	} {
		if got := samplingText(json.RawMessage(tc.raw)); got != tc.want {
			t.Errorf("samplingText(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestCancelledSampleCancelsItsRequest(t *testing.T) {
	sampling := make(chan jsonrpc.ID, 1)
	handler := func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		sampling <- req.ID
		<-ctx.Done() // a user who never answers
		return nil, ctx.Err()
	}
	c := startInitialized(t, nil, handler, `{"sampling":{}}`)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- c.conn.Call(ctx, "tools/call", json.RawMessage(`{"name":"sample","arguments":{"prompt":"p"}}`), nil)
	}()
	id := <-sampling
	cancel()
	<-done
	// Our conn numbers its calls: 1 was initialize, 2 the tools/call.
	if err := c.conn.Notify(context.Background(), "notifications/cancelled", json.RawMessage(`{"requestId":2}`)); err != nil {
		t.Fatal(err)
	}
	n := c.nextNote()
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
		Reason    string     `json:"reason"`
	}
	json.Unmarshal(n.Params, &p)
	if n.Method != "notifications/cancelled" || p.RequestID != id || !strings.Contains(p.Reason, "sampling/createMessage") {
		t.Errorf("got %s %s, want notifications/cancelled for request %v", n.Method, n.Params, id)
	}
	c.serverLog.waitFor(t, "tool call ended", "tool=sample", "context canceled")
}
