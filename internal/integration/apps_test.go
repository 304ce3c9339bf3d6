package integration

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/apps"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/ui"
)

// appsServer returns the stdio config of the MCP Apps extension's basic
// example server (server-basic-vanillajs), or skips.
func appsServer(t *testing.T) *toolreg.ServerConfig {
	t.Helper()
	entry := os.Getenv("PLAINMCP_APPS_BASIC")
	if entry == "" {
		t.Skip("PLAINMCP_APPS_BASIC not set: run `make integration`")
	}
	return &toolreg.ServerConfig{Name: "basic", Type: "stdio", Command: "node", Args: []string{entry, "--stdio"}}
}

// TestIntegrationApps reads the example server's tool, its interface and
// the interface's metadata as a host that declared MCP Apps does, calls
// the tool, and checks that mcpc tools --json shows the tool's _meta.ui.
func TestIntegrationApps(t *testing.T) {
	sc := appsServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	reg, err := toolreg.New(ctx, &toolreg.Config{Servers: []*toolreg.ServerConfig{sc}},
		&toolreg.Options{Session: &mcpclient.Options{UI: true}, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	tools, err := reg.ModelTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var tool *toolreg.Tool
	for i := range tools {
		if tools[i].Def.Name == "get-time" {
			tool = &tools[i]
		}
	}
	if tool == nil {
		t.Fatalf("no get-time among %d model tools", len(tools))
	}
	toolUI := apps.ToolUIOf(tool.Def)
	if !strings.HasPrefix(toolUI.ResourceURI, "ui://") || !toolUI.ModelVisible() || !toolUI.AppVisible() {
		t.Fatalf("get-time's _meta.ui: %+v (meta %s)", toolUI, tool.Def.Meta)
	}
	it, err := ui.Read(ctx, reg, tool.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.ToLower(it.UI.MimeType), "text/html") || !strings.Contains(it.UI.HTML, "get-time-btn") {
		t.Errorf("interface %s: MIME %q, %d bytes of HTML", it.UI.URI, it.UI.MimeType, len(it.UI.HTML))
	}
	if p := it.UI.Meta.CSP.Policy(); !strings.Contains(p, "default-src 'none'") {
		t.Errorf("policy %q", p)
	}
	res, err := ui.CallForApp(ctx, reg, "basic", "get-time", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Time string `json:"time"`
	}
	if json.Unmarshal(res.Structured, &out) != nil || out.Time == "" {
		t.Errorf("get-time returned %s", res.Structured)
	}

	c := &cli{bin: buildMCPC(t), env: os.Environ()}
	r := c.want(t, 0, "", "--stdio", "node "+sc.Args[0]+" --stdio", "--json", "tools")
	var listed []struct {
		Tool string          `json:"tool"`
		Meta json.RawMessage `json:"_meta"`
	}
	if decode(t, r, &listed) && (len(listed) != 1 || apps.ToolUIOf(&mcpclient.Tool{Meta: listed[0].Meta}).ResourceURI != toolUI.ResourceURI) {
		t.Errorf("mcpc tools --json: %s", r.stdout)
	}
}
