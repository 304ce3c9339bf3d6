package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// memoryTool is a tool as the memory server lists it, nested schema and
// all, with what newer servers add: titles, choices, task support, an
// app, and a member no version of MCP names.
const memoryTool = `{"name":"create_entities","title":"Create entities","description":"Create entities\nin the graph.",
 "inputSchema":{"type":"object","required":["entities"],"properties":{
  "entities":{"type":"array","title":"Entities","description":"The entities to create","items":{"type":"object","required":["name"],"properties":{
   "name":{"type":"string","title":"Name","description":"Its name"},
   "kind":{"type":"string","oneOf":[{"const":"person","title":"Person"},{"const":"org","title":"Organisation"}],"default":"person"},
   "observations":{"type":"array","items":{"type":"string"},"maxItems":10}}}},
  "dryRun":{"type":"boolean","title":"Dry run","default":false}}},
 "annotations":{"destructiveHint":false,"idempotentHint":true},
 "execution":{"taskSupport":"optional"},
 "icons":[{"src":"https://example.com/i.png"}],
 "x-vendor":{"kept":true},
 "_meta":{"ui":{"resourceUri":"ui://graph/app.html"}}}`

// oneToolServer serves memoryTool alone over an in-memory pipe.
func oneToolServer(t *testing.T) func(*toolreg.ServerConfig) jsonrpc.Stream {
	return func(*toolreg.ServerConfig) jsonrpc.Stream {
		client, server := transport.Pipe()
		c := jsonrpc.NewConn(server, &jsonrpc.Options{Handler: func(_ context.Context, req *jsonrpc.Request) (any, error) {
			switch req.Method {
			case "initialize":
				var p struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				json.Unmarshal(req.Params, &p)
				return map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
					"serverInfo": map[string]any{"name": "memory", "version": "1"}}, nil
			case "tools/list":
				return json.RawMessage(`{"tools":[` + memoryTool + `]}`), nil
			}
			return nil, jsonrpc.ErrMethodNotFound
		}})
		t.Cleanup(func() { c.Close() })
		return client
	}
}

func runTool(t *testing.T, args ...string) (int, string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	c := &cli{dir: t.TempDir(), serve: oneToolServer(t), stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
	code := c.run(ctx, append([]string{"--stdio", "memory-server", "--name", "memory"}, args...))
	return code, stdout.String(), stderr.String()
}

// mcpc tool shows every argument, nested ones too, with its title, type,
// whether it is required, its default and choices; and the annotations,
// task support and app.
func TestToolShowsTheWholeDefinition(t *testing.T) {
	code, out, errs := runTool(t, "tool", "create_entities")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"mcp__memory__create_entities — Create entities",
		"  Create entities\n  in the graph.\n",
		"  entities (Entities): array of object, required\n      The entities to create\n      each item:\n",
		"        name (Name): string, required\n            Its name\n",
		"        kind: string, optional, default \"person\", one of Person (person), Organisation (org)\n",
		"        observations: array of string, optional, at most 10 items\n",
		"  dryRun (Dry run): boolean, optional, default false\n",
		"Annotations: destructive no, idempotent yes (the server's word)",
		"Task support: optional",
		"App: ui://graph/app.html (callable by the model and its app)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the description lacks %q:\n%s", want, out)
		}
	}
}

// mcpc tool --json keeps every member the server sent, those mcpc does
// not know among them.
func TestToolJSONKeepsEveryMember(t *testing.T) {
	code, out, errs := runTool(t, "--json", "tool", "mcp__memory__create_entities")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Name       string         `json:"name"`
		Server     string         `json:"server"`
		Definition map[string]any `json:"definition"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var want map[string]any
	json.Unmarshal([]byte(memoryTool), &want)
	gotJSON, _ := json.Marshal(got.Definition)
	wantJSON, _ := json.Marshal(want)
	if got.Name != "mcp__memory__create_entities" || got.Server != "memory" || string(gotJSON) != string(wantJSON) {
		t.Errorf("got %s %s %s\nwant the server's object %s", got.Name, got.Server, gotJSON, wantJSON)
	}
}

func TestToolUnknown(t *testing.T) {
	if code, _, errs := runTool(t, "tool", "nope"); code == exitOK || !strings.Contains(errs, `no tool "nope"`) {
		t.Errorf("exit %d: %s", code, errs)
	}
}
