package mcpclient

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
)

// A tools/call result without content is not a tool result: a task the
// call did not ask for, or anything else, is a protocol error naming what
// came — never an empty success.
func TestToolResultWithoutContentIsAnError(t *testing.T) {
	for _, tc := range []struct {
		result  string
		wantErr string // "" for success
	}{
		{`{"content":[]}`, ""},
		{`{"content":[{"type":"text","text":"x"}],"isError":true}`, ""},
		{`{"task":{"taskId":"t","status":"working","createdAt":"","lastUpdatedAt":"","ttl":null}}`, "CreateTaskResult"},
		{`{"structuredContent":{"a":1}}`, "structuredContent"},
		{`{}`, "empty object"},
	} {
		f := fakemcp.New(t)
		f.Result("tools/call", tc.result)
		s := connect(t, f, nil)
		res, err := s.CallTool(ctx5s(t), "x", nil)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.result, err)
		case tc.wantErr != "" && (!errors.Is(err, ErrMalformedResult) || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: got %+v, %v; want an error naming %s", tc.result, res, err, tc.wantErr)
		}
	}
}

// Arguments go out as an object, {} when the caller has none: servers on
// the TypeScript SDK reject "arguments": null. prompts/get likewise.
func TestArgumentsAreAlwaysAnObject(t *testing.T) {
	var nilMap map[string]any
	for _, args := range []any{nil, nilMap, json.RawMessage(nil), json.RawMessage("null"), map[string]any{}} {
		f := fakemcp.New(t)
		f.Result("tools/call", `{"content":[]}`)
		s := connect(t, f, nil)
		if _, err := s.CallTool(ctx5s(t), "x", args); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(`{"name":"x","arguments":{}}`, string(f.Request("tools/call").Params)); diff != "" {
			t.Errorf("%#v (-want +got):\n%s", args, diff)
		}
	}
	f := fakemcp.New(t)
	f.Result("prompts/get", `{"messages":[]}`)
	s := connect(t, f, nil)
	if _, err := s.GetPrompt(ctx5s(t), "wrapup", nil); err != nil {
		t.Fatal(err)
	}
	if got := string(f.Request("prompts/get").Params); got != `{"name":"wrapup","arguments":{}}` {
		t.Errorf("prompts/get params %s", got)
	}
}
