package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// slowTool answers tools/call after d (or when the call is cancelled).
func slowTool(f *fakemcp.Server, d time.Duration) {
	f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		select {
		case <-time.After(d):
			return json.RawMessage(`{"content":[{"type":"text","text":"late but fine"}]}`), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

// A response whose result is null is no result: MCP results are objects.
func TestNullResultIsAnError(t *testing.T) {
	for _, era := range []Era{EraHandshake, EraStateless} {
		t.Run(era.String(), func(t *testing.T) {
			f := modernServer(t)
			f.Result("tools/call", `null`)
			f.Result("tools/list", `null`)
			f.Result("custom/thing", `null`)
			s := connect(t, f, &Options{Era: era})
			if res, err := s.CallTool(ctx5s(t), "t", nil); !errors.Is(err, ErrMalformedResult) || res != nil {
				t.Errorf("CallTool: %v, %v; want ErrMalformedResult", res, err)
			}
			if _, err := s.listTools(ctx5s(t), ""); !errors.Is(err, ErrMalformedResult) {
				t.Errorf("ListTools: %v", err)
			}
			var raw json.RawMessage
			if err := s.Call(ctx5s(t), "custom/thing", nil, &raw); !errors.Is(err, ErrMalformedResult) {
				t.Errorf("Call: %v", err)
			}
		})
	}
}

// Progress that comes after its call returned goes to OnProgress, in
// order with the other notifications, instead of vanishing.
func TestLateProgressReachesOnProgress(t *testing.T) {
	f := fakemcp.New(t)
	tokens := make(chan json.RawMessage, 1)
	f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		var p struct {
			Meta struct {
				Token json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		json.Unmarshal(r.Params, &p)
		tokens <- p.Meta.Token
		return json.RawMessage(`{"content":[]}`), nil
	})
	late := make(chan string, 2)
	s := connect(t, f, &Options{OnProgress: func(token json.RawMessage, p Progress) {
		late <- string(token) + " " + p.Message
	}})
	var during []Progress
	ctx := WithProgress(ctx5s(t), func(p Progress) { during = append(during, p) })
	if _, err := s.CallTool(ctx, "t", nil); err != nil {
		t.Fatal(err)
	}
	token := <-tokens
	f.Conn.Notify(ctx5s(t), "notifications/progress", map[string]any{"progressToken": token, "progress": 1, "message": "after the answer"})
	f.Conn.Notify(ctx5s(t), "notifications/progress", map[string]any{"progressToken": "never-given", "progress": 1, "message": "a stranger"})
	for _, want := range []string{string(token) + " after the answer", `"never-given" a stranger`} {
		select {
		case got := <-late:
			if got != want {
				t.Errorf("OnProgress got %q, want %q", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("OnProgress never got %q", want)
		}
	}
	if len(during) != 0 {
		t.Errorf("the call's callback got progress after it returned: %v", during)
	}
}

// With ManualInput the caller sees the input-required result and retries
// through Call with its own inputResponses and the verbatim requestState,
// which reach the server untouched.
func TestManualInputRounds(t *testing.T) {
	f := modernServer(t)
	const state = `"opaque<&>\u00e9"`
	f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		if !strings.Contains(string(r.Params), `"requestState"`) {
			return json.RawMessage(`{"resultType":"input_required","requestState":` + state + `,"inputRequests":{"who":{"method":"elicitation/create","params":{"message":"name?"}}}}`), nil
		}
		return json.RawMessage(`{"content":[{"type":"text","text":"hello"}]}`), nil
	})
	elicited := false
	s := connect(t, f, &Options{ManualInput: true, Elicitation: func(context.Context, *ElicitParams) (*ElicitResult, error) {
		elicited = true
		return &ElicitResult{Action: "decline"}, nil
	}})
	_, err := s.CallTool(ctx5s(t), "greet", map[string]string{"x": "y"})
	var ir *InputRequiredError
	if !errors.As(err, &ir) || string(ir.RequestState) != state || !strings.Contains(string(ir.InputRequests), "elicitation/create") {
		t.Fatalf("err = %v, want an *InputRequiredError carrying the server's requests and state", err)
	}
	if elicited {
		t.Error("the handler ran although ManualInput is set")
	}
	retry := json.RawMessage(`{"name":"greet","arguments":{"x":"y"},"inputResponses":{"who":{"action":"accept","content":{"n":"Ada"}}},"requestState":` + state + `}`)
	var res CallToolResult
	if err := s.Call(ctx5s(t), "tools/call", retry, &res); err != nil || res.Text() != "hello" {
		t.Fatalf("retry: %+v, %v", res, err)
	}
	params := f.ParamsOf("tools/call")
	if len(params) != 2 {
		t.Fatalf("%d tools/call requests, want 2", len(params))
	}
	calls := f.Requests("tools/call")
	sent := string(calls[len(calls)-1].Params)
	for _, want := range []string{`"requestState":` + state, `"inputResponses":{"who":{"action":"accept","content":{"n":"Ada"}}}`, `"io.modelcontextprotocol/protocolVersion"`} {
		if !strings.Contains(sent, want) {
			t.Errorf("the retry went out as %s; it lacks %s", sent, want)
		}
	}
}

// Decoding scratch is recycled between calls: nothing of one result may
// show up in the next.
func TestCallToolResultsDoNotBleed(t *testing.T) {
	f := fakemcp.New(t)
	f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		if strings.Contains(string(r.Params), `"first"`) {
			return json.RawMessage(`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png","annotations":{"a":1}},{"type":"text","text":"one","_meta":{"m":1}}],"structuredContent":{"x":1},"isError":true}`), nil
		}
		return json.RawMessage(`{"content":[{"type":"text","text":"two"}]}`), nil
	})
	s := connect(t, f, nil)
	if _, err := s.CallTool(ctx5s(t), "first", nil); err != nil {
		t.Fatal(err)
	}
	res, err := s.CallTool(ctx5s(t), "second", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &CallToolResult{Content: []Content{{Type: "text", Text: "two"}}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("second result (-want +got):\n%s", diff)
	}
}
