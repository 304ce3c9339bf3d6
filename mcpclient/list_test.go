package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// pagedTools serves n tools in pages of size, with cursors "c<offset>".
func pagedTools(n, size int) jsonrpc.Handler {
	return func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		var p struct{ Cursor string }
		json.Unmarshal(r.Params, &p)
		off := 0
		if p.Cursor != "" {
			if _, err := fmt.Sscanf(p.Cursor, "c%d", &off); err != nil {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "bad cursor")
			}
		}
		var tools []string
		for i := off; i < off+size && i < n; i++ {
			tools = append(tools, fmt.Sprintf(`{"name":"t%d","inputSchema":{"type":"object"}}`, i))
		}
		next := ""
		if off+size < n {
			next = fmt.Sprintf(`,"nextCursor":"c%d"`, off+size)
		}
		return json.RawMessage(`{"tools":[` + strings.Join(tools, ",") + `]` + next + `}`), nil
	}
}

func TestPagination(t *testing.T) {
	f := fakemcp.New(t)
	f.Handle("tools/list", pagedTools(250, 100))
	s := connect(t, f, nil)
	page, err := s.listTools(ctx5s(t), "")
	if err != nil || len(page.Tools) != 100 || page.NextCursor != "c100" {
		t.Fatalf("first page: %d tools, cursor %q, %v", len(page.Tools), page.NextCursor, err)
	}
	all, err := Collect(s.Tools(ctx5s(t)))
	if err != nil || len(all) != 250 || all[249].Name != "t249" {
		t.Fatalf("Collect: %d tools, %v", len(all), err)
	}
	// Stopping early fetches no more pages.
	n := 0
	for tool, err := range s.Tools(ctx5s(t)) {
		if err != nil || tool.Name != "t0" {
			t.Fatal(tool, err)
		}
		n++
		break
	}
	if n != 1 {
		t.Error("break did not stop the iterator")
	}
}

func TestRunawayPagination(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result func(cursor string) string
		opts   *Options
		want   string
	}{
		{"repeated cursor", func(string) string { return `{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":"same"}` }, nil, `cursor "same" twice`},
		{"endless cursors", func(c string) string {
			return `{"tools":[],"nextCursor":"` + c + `x"}`
		}, &Options{MaxPages: 5}, "after 5 pages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakemcp.New(t)
			f.Handle("tools/list", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
				var p struct{ Cursor string }
				json.Unmarshal(r.Params, &p)
				return json.RawMessage(tc.result(p.Cursor)), nil
			})
			s := connect(t, f, tc.opts)
			_, err := Collect(s.Tools(ctx5s(t)))
			if !errors.Is(err, ErrPagination) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrPagination mentioning %q", err, tc.want)
			}
		})
	}
}

func TestListKinds(t *testing.T) {
	f := fakemcp.New(t)
	f.Result("prompts/list", `{"prompts":[{"name":"greet","arguments":[{"name":"who","required":true}]}]}`)
	f.Result("resources/list", `{"resources":[{"uri":"file:///a","name":"a","size":12}]}`)
	s := connect(t, f, nil)
	prompts, err := Collect(s.Prompts(ctx5s(t)))
	if err != nil || len(prompts) != 1 || !prompts[0].Arguments[0].Required {
		t.Errorf("prompts: %+v %v", prompts, err)
	}
	res, err := Collect(s.Resources(ctx5s(t)))
	if err != nil || len(res) != 1 || *res[0].Size != 12 {
		t.Errorf("resources: %+v %v", res, err)
	}
	// The fake answers resources/templates/list with method-not-found: no templates.
	tmpl, err := Collect(s.ResourceTemplates(ctx5s(t)))
	if err != nil || len(tmpl) != 0 {
		t.Errorf("templates: %v %v", tmpl, err)
	}
	f.Result("resources/templates/list", `{"resourceTemplates":[{"uriTemplate":"file:///{p}","name":"files"}]}`)
	tmpl, err = Collect(s.ResourceTemplates(ctx5s(t)))
	if err != nil || len(tmpl) != 1 || tmpl[0].URITemplate != "file:///{p}" {
		t.Errorf("templates: %v %v", tmpl, err)
	}
}

func TestMalformedListItems(t *testing.T) {
	f := fakemcp.New(t)
	f.Result("tools/list", `{"tools":[null]}`)
	f.Result("prompts/list", `{"prompts":[{"description":"no name"}]}`)
	f.Result("resources/list", `{"resources":"nope"}`)
	s := connect(t, f, nil)
	if _, err := s.listTools(ctx5s(t), ""); !errors.Is(err, ErrMalformedResult) {
		t.Errorf("null tool: %v", err)
	}
	if _, err := s.listPrompts(ctx5s(t), ""); !errors.Is(err, ErrMalformedResult) {
		t.Errorf("nameless prompt: %v", err)
	}
	if _, err := s.listResources(ctx5s(t), ""); err == nil || !strings.Contains(err.Error(), "resources/list") {
		t.Errorf("resources not an array: %v", err)
	}
}

func TestSchemasKeptByteForByte(t *testing.T) {
	schema := `{ "$schema":"https://json-schema.org/draft/2020-12/schema", "type" : "object",
	  "$defs":{"a":{"$anchor":"x","type":"string"}}, "properties":{"z":{"$ref":"#/$defs/a"},"a":{"allOf":[{"if":{"const":1},"then":{},"else":{}}]}},
	  "additionalProperties": false }`
	out := `{"type":"object","properties":{"sum":{"type":"number"}}}`
	f := fakemcp.New(t)
	f.Result("tools/list", `{"tools":[{"name":"s","inputSchema":`+schema+`,"outputSchema":`+out+`,"annotations":{"readOnlyHint":true},"_meta":{"k":1}}]}`)
	s := connect(t, f, nil)
	page, err := s.listTools(ctx5s(t), "")
	if err != nil {
		t.Fatal(err)
	}
	tool := page.Tools[0]
	if string(tool.InputSchema) != schema || string(tool.OutputSchema) != out {
		t.Errorf("schema changed:\n%s\n%s", tool.InputSchema, tool.OutputSchema)
	}
	if !*tool.Annotations.ReadOnlyHint || tool.Annotations.DestructiveHint != nil || string(tool.Meta) != `{"k":1}` {
		t.Errorf("annotations %+v meta %s", tool.Annotations, tool.Meta)
	}
}
