package toolreg

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// listing dials an in-process server that answers tools/list and
// prompts/list with the results given, and tools/call with its tool's name.
func listing(t *testing.T, tools, prompts string) func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	return func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		conn := jsonrpc.NewConn(server, &jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			switch req.Method {
			case "initialize":
				return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"dup","version":"1"}}`), nil
			case "tools/list":
				return json.RawMessage(tools), nil
			case "prompts/list":
				return json.RawMessage(prompts), nil
			}
			return nil, jsonrpc.ErrMethodNotFound
		}})
		t.Cleanup(func() { conn.Close() })
		return mcpclient.Connect(ctx, client, opts)
	}
}

// A server that lists one name twice gets one tool (and one prompt) of
// that name, its first: an exposed name that two entries of Tools share
// makes a model API refuse the whole list, every server's tools with it,
// and the approver would weigh annotations that the host did not show.
func TestDuplicateNamesInOneListingCountOnce(t *testing.T) {
	tools := `{"tools":[
		{"name":"x","description":"first","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},
		{"name":"y","inputSchema":{"type":"object"}},
		{"name":"x","description":"second","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}}]}`
	prompts := `{"prompts":[{"name":"p","description":"first"},{"name":"p","description":"second"}]}`
	r := newRegistry(t, &Options{Dial: listing(t, tools, prompts)}, memConfig("dup"))
	got, err := r.Tools(ctx10(t))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tool := range got {
		if seen[tool.Name] {
			t.Errorf("Tools lists %s twice", tool.Name)
		}
		seen[tool.Name] = true
		if tool.Name == "mcp__dup__x" && tool.Def.Description != "first" {
			t.Errorf("kept %q, want the first", tool.Def.Description)
		}
	}
	if len(got) != 2 {
		t.Errorf("%d tools, want 2", len(got))
	}
	if a := r.annotations("mcp__dup__x"); a == nil || a.ReadOnlyHint == nil || !*a.ReadOnlyHint {
		t.Errorf("annotations for the approver: %+v, want the listed tool's", a)
	}
	if st := r.Servers()[0]; st.Tools != 2 {
		t.Errorf("status counts %d tools", st.Tools)
	}
	ps, err := r.Prompts(ctx10(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Def.Description != "first" {
		t.Errorf("prompts: %+v", ps)
	}
}
