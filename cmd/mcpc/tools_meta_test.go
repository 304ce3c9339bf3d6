package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// tools --json keeps each tool's _meta as the server sent it: MCP Apps'
// _meta.ui is how a host learns that a tool has an interface.
func TestToolsJSONKeepsMeta(t *testing.T) {
	meta := `{"ui":{"resourceUri":"ui://get-time/mcp-app.html","visibility":["model","app"]},"ui/resourceUri":"ui://get-time/mcp-app.html"}`
	var b bytes.Buffer
	err := writeTools(&b, []toolreg.Tool{{Name: "mcp__s__t", Server: "s", Def: &mcpclient.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), Meta: json.RawMessage(meta)}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v in %s", err, b.Bytes())
	}
	if len(got) != 1 || string(got[0].Meta) != meta {
		t.Errorf("_meta = %s, want %s", got[0].Meta, meta)
	}
}
