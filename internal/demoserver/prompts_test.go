package demoserver

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestPromptsList(t *testing.T) {
	c := startInitialized(t, &Options{PageSize: 1}, nil, `{}`)
	var names []string
	cursor := ""
	for {
		var page struct {
			Prompts []struct {
				Name      string
				Arguments []struct {
					Name     string
					Required bool
				}
			}
			NextCursor string
		}
		if err := c.call("prompts/list", map[string]string{"cursor": cursor}, &page); err != nil {
			t.Fatal(err)
		}
		if len(page.Prompts) != 1 {
			t.Fatalf("page of %d prompts, want 1", len(page.Prompts))
		}
		names = append(names, page.Prompts[0].Name)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if d := cmp.Diff([]string{"greeting", "code-review"}, names); d != "" {
		t.Errorf("prompts (-want +got):\n%s", d)
	}
}

type promptMessageWire struct {
	Role    string
	Content struct{ Type, Text string }
}

func TestPromptsGet(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, tc := range []struct {
		name string
		args map[string]string
		want []promptMessageWire
	}{
		{"greeting", map[string]string{"name": "Bob"}, []promptMessageWire{
			{"user", struct{ Type, Text string }{"text", "Say hello to Bob"}},
		}},
		{"code-review", map[string]string{"code": "x := 1", "language": "go"}, []promptMessageWire{
			{"user", struct{ Type, Text string }{"text", "Please review this go code:\n\n```go\nx := 1\n```"}},
			{"assistant", struct{ Type, Text string }{"text", "I will review it for correctness, clarity and style."}},
		}},
		{"code-review", map[string]string{"code": "x"}, []promptMessageWire{
			{"user", struct{ Type, Text string }{"text", "Please review this code:\n\n```\nx\n```"}},
			{"assistant", struct{ Type, Text string }{"text", "I will review it for correctness, clarity and style."}},
		}},
	} {
		var res struct {
			Description string
			Messages    []promptMessageWire
		}
		if err := c.call("prompts/get", map[string]any{"name": tc.name, "arguments": tc.args}, &res); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if d := cmp.Diff(tc.want, res.Messages); d != "" || res.Description == "" {
			t.Errorf("%s %v (-want +got):\n%s", tc.name, tc.args, d)
		}
	}
}

func TestPromptsGetErrors(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, tc := range []struct{ params, want string }{
		{`{"name":"nope"}`, `unknown prompt "nope"`},
		{`{"name":"greeting"}`, `missing required argument "name"`},
		{`{"name":"code-review","arguments":{"language":"go"}}`, `missing required argument "code"`},
		{`{"name":"greeting","arguments":{"name":5}}`, `prompts/get`},
	} {
		err := c.call("prompts/get", json.RawMessage(tc.params), nil)
		wantCode(t, err, jsonrpc.CodeInvalidParams, tc.want)
	}
}

func TestComplete(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, tc := range []struct {
		ref, arg, value string
		want            []string
	}{
		{`{"type":"ref/prompt","name":"code-review"}`, "language", "", []string{"go", "python", "rust", "typescript"}},
		{`{"type":"ref/prompt","name":"code-review"}`, "language", "Py", []string{"python"}},
		{`{"type":"ref/prompt","name":"code-review"}`, "code", "", []string{}},
		{`{"type":"ref/prompt","name":"greeting"}`, "name", "a", []string{"Ada", "Alan"}},
		{`{"type":"ref/prompt","name":"greeting"}`, "name", "z", []string{}},
		{`{"type":"ref/resource","uri":"demo://greetings/{name}"}`, "name", "gr", []string{"Grace"}},
	} {
		params := json.RawMessage(`{"ref":` + tc.ref + `,"argument":{"name":"` + tc.arg + `","value":"` + tc.value + `"}}`)
		var res struct {
			Completion struct {
				Values  []string
				Total   int
				HasMore *bool
			}
		}
		if err := c.call("completion/complete", params, &res); err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		got := res.Completion
		if d := cmp.Diff(tc.want, got.Values); d != "" || got.Total != len(tc.want) || got.HasMore == nil || *got.HasMore {
			t.Errorf("%s: %+v (-want +got values):\n%s", params, got, d)
		}
	}
}

func TestCompleteErrors(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, tc := range []struct{ ref, want string }{
		{`{"type":"ref/prompt","name":"nope"}`, `unknown prompt "nope"`},
		{`{"type":"ref/resource","uri":"demo://nope/{x}"}`, `unknown resource template`},
		{`{"type":"ref/tool","name":"echo"}`, `unknown reference type "ref/tool"`},
	} {
		err := c.call("completion/complete", json.RawMessage(`{"ref":`+tc.ref+`,"argument":{"name":"a","value":""}}`), nil)
		wantCode(t, err, jsonrpc.CodeInvalidParams, tc.want)
	}
}
