package ui_test

import (
	"context"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/ui"
	"github.com/plainmcp/plainmcp/transport"
)

// A host that renders MCP Apps: the model is offered only the tools
// visible to it, a tool's interface is read (once) for rendering, and an
// app may call its server's app-visible tools.
func Example() {
	srv := appserver.New()
	ctx := context.Background()
	reg, err := toolreg.New(ctx, &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "apps", Type: "memory"}}}, &toolreg.Options{
		Session: &mcpclient.Options{UI: true}, // declare the extension
		Dial: func(ctx context.Context, sc *toolreg.ServerConfig, o *mcpclient.Options) (*mcpclient.Session, error) {
			client, server := transport.Pipe()
			srv.Serve(server)
			return mcpclient.Connect(ctx, client, o)
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()
	tools, _ := reg.ModelTools(ctx)
	for _, t := range tools {
		fmt.Println("model:", t.Name)
	}
	it, err := ui.Read(ctx, reg, "mcp__apps__clock")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("interface:", it.UI.URI, it.UI.MimeType)
	_, err = ui.CallForApp(ctx, reg, "apps", "tick", nil)
	fmt.Println("app calls tick:", err)
	_, err = ui.CallForApp(ctx, reg, "apps", "note", nil)
	fmt.Println("app calls note:", err)
	// Output:
	// model: mcp__apps__clock
	// model: mcp__apps__note
	// model: mcp__apps__legacy
	// interface: ui://clock/app.html text/html;profile=mcp-app
	// app calls tick: <nil>
	// app calls note: toolreg/ui: the tool is not visible to apps: "note" on server "apps"
}
