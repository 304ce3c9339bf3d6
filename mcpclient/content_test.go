package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestCallToolResultUnion(t *testing.T) {
	unknown := `{"type":"hologram","frames":[1,2],"text":"x"}`
	result := `{"content":[
		{"type":"text","text":"hello"},
		{"type":"text","text":""},
		{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","annotations":{"audience":["user"]}},
		{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},
		{"type":"resource_link","uri":"file:///a.txt","name":"a","mimeType":"text/plain","size":3},
		{"type":"resource","resource":{"uri":"file:///b","mimeType":"text/plain","text":"body"}},
		{"type":"resource","resource":{"uri":"file:///c","blob":"AAE="}},
		` + unknown + `],
		"structuredContent":{"sum":3},"isError":true,"_meta":{"m":1}}`
	f := fakemcp.New(t)
	f.Result("tools/call", result)
	s := connect(t, f, nil)
	res, err := s.CallTool(ctx5s(t), "t", map[string]any{"a": 1})
	if err != nil {
		t.Fatal(err)
	}
	size := int64(3)
	want := &CallToolResult{
		Content: []Content{
			{Type: "text", Text: "hello"},
			{Type: "text"},
			{Type: "image", Data: "iVBORw0KGgo=", MimeType: "image/png", Annotations: json.RawMessage(`{"audience":["user"]}`)},
			{Type: "audio", Data: "UklGRg==", MimeType: "audio/wav"},
			{Type: "resource_link", URI: "file:///a.txt", Name: "a", MimeType: "text/plain", Size: &size},
			{Type: "resource", Resource: &ResourceContents{URI: "file:///b", MimeType: "text/plain", Text: "body"}},
			{Type: "resource", Resource: &ResourceContents{URI: "file:///c", Blob: "AAE=", IsBlob: true}},
			{Type: "hologram", Raw: json.RawMessage(unknown)},
		},
		StructuredContent: json.RawMessage(`{"sum":3}`),
		IsError:           true,
		Meta:              json.RawMessage(`{"m":1}`),
	}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if res.Text() != "hello\n" {
		t.Errorf("Text() = %q", res.Text())
	}
	// Re-encoding keeps required fields and the unknown item verbatim.
	for i, wantJSON := range []string{
		`{"type":"text","text":"hello"}`,
		`{"type":"text","text":""}`,
		`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","annotations":{"audience":["user"]}}`,
		`{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`,
		`{"type":"resource_link","mimeType":"text/plain","uri":"file:///a.txt","name":"a","size":3}`,
		`{"type":"resource","resource":{"uri":"file:///b","mimeType":"text/plain","text":"body"}}`,
		`{"type":"resource","resource":{"uri":"file:///c","blob":"AAE="}}`,
		unknown,
	} {
		got, err := json.Marshal(res.Content[i])
		if err != nil || string(got) != wantJSON {
			t.Errorf("item %d re-encoded as\n %s (%v)\nwant\n %s", i, got, err, wantJSON)
		}
	}
	// What the client sent.
	var p map[string]any
	json.Unmarshal(f.Request("tools/call").Params, &p)
	if diff := cmp.Diff(map[string]any{"name": "t", "arguments": map[string]any{"a": 1.0}}, p); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
}

func TestContentDecodesOnItsOwn(t *testing.T) {
	var c Content
	if err := json.Unmarshal([]byte(`{"type":"tool_use","id":"u1","name":"get","input":{"q":1}}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.ID != "u1" || c.Name != "get" || string(c.Input) != `{"q":1}` {
		t.Errorf("%+v", c)
	}
	var l ContentList
	json.Unmarshal([]byte(`[{"type":"text","text":"a"},{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"r"}]}]`), &l)
	if len(l) != 2 || l[1].Content[0].Text != "r" {
		t.Errorf("%+v", l)
	}
	one, _ := json.Marshal(ContentList{{Type: "text", Text: "x"}})
	if string(one) != `{"type":"text","text":"x"}` {
		t.Errorf("single content list written as %s", one)
	}
	empty, _ := json.Marshal(Content{Type: "tool_result", ToolUseID: "u"})
	if string(empty) != `{"type":"tool_result","toolUseId":"u","content":[]}` {
		t.Errorf("tool_result without content: %s", empty)
	}
}

func TestOtherMethods(t *testing.T) {
	f := fakemcp.New(t)
	f.Result("prompts/get", `{"description":"d","messages":[{"role":"user","content":{"type":"text","text":"Say hi to Bob"}}]}`)
	f.Result("resources/read", `{"contents":[{"uri":"demo://a","mimeType":"text/plain","text":"A"},{"uri":"demo://b","blob":"Qg=="}]}`)
	f.Result("resources/subscribe", `{}`)
	f.Result("resources/unsubscribe", `{}`)
	f.Result("completion/complete", `{"completion":{"values":["go","gleam"],"total":2,"hasMore":false}}`)
	f.Result("logging/setLevel", `{}`)
	s := connect(t, f, nil)
	ctx := ctx5s(t)
	pr, err := s.GetPrompt(ctx, "greet", map[string]string{"name": "Bob"})
	if err != nil || pr.Messages[0].Content.Text != "Say hi to Bob" {
		t.Errorf("GetPrompt: %+v %v", pr, err)
	}
	rr, err := s.ReadResource(ctx, "demo://a")
	if err != nil || rr.Contents[0].Text != "A" || !rr.Contents[1].IsBlob || rr.Contents[1].Blob != "Qg==" {
		t.Errorf("ReadResource: %+v %v", rr, err)
	}
	if err := s.Subscribe(ctx, "demo://a"); err != nil {
		t.Error(err)
	}
	if err := s.Unsubscribe(ctx, "demo://a"); err != nil {
		t.Error(err)
	}
	c, err := s.Complete(ctx, &CompleteParams{Ref: CompleteRef{Type: "ref/prompt", Name: "code"}, Argument: CompleteArgument{Name: "language", Value: "g"}})
	if err != nil || len(c.Values) != 2 || *c.Total != 2 {
		t.Errorf("Complete: %+v %v", c, err)
	}
	if err := s.SetLogLevel(ctx, "debug"); err != nil {
		t.Error(err)
	}
	for method, want := range map[string]string{
		"prompts/get":         `{"name":"greet","arguments":{"name":"Bob"}}`,
		"resources/read":      `{"uri":"demo://a"}`,
		"completion/complete": `{"ref":{"type":"ref/prompt","name":"code"},"argument":{"name":"language","value":"g"}}`,
		"logging/setLevel":    `{"level":"debug"}`,
	} {
		if got := string(f.Request(method).Params); got != want {
			t.Errorf("%s params %s, want %s", method, got, want)
		}
	}
	// An unknown resource is a typed error.
	f.Handle("resources/read", func(ctx2 context.Context, r *jsonrpc.Request) (any, error) {
		return nil, &jsonrpc.Error{Code: CodeResourceNotFound, Message: "no such resource"}
	})
	if _, err := s.ReadResource(ctx, "demo://zzz"); !errors.Is(err, &jsonrpc.Error{Code: CodeResourceNotFound}) {
		t.Errorf("missing resource: %v", err)
	}
}
