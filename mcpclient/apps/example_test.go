package apps_test

import (
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/apps"
)

// A tool's MCP Apps metadata: the interface that renders its results, and
// whom it is visible to. An app-only tool must not be offered to a model.
func ExampleToolUIOf() {
	tools := []*mcpclient.Tool{
		{Name: "get_weather", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://weather/dashboard"}}`)},
		{Name: "refresh", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://weather/dashboard","visibility":["app"]}}`)},
		{Name: "legacy", Meta: json.RawMessage(`{"ui/resourceUri":"ui://weather/old"}`)},
		{Name: "plain"},
	}
	for _, t := range tools {
		ui := apps.ToolUIOf(t)
		fmt.Printf("%s: interface %q, model %v, app %v\n", t.Name, ui.ResourceURI, ui.ModelVisible(), ui.AppVisible())
	}
	// Output:
	// get_weather: interface "ui://weather/dashboard", model true, app true
	// refresh: interface "ui://weather/dashboard", model false, app true
	// legacy: interface "ui://weather/old", model true, app true
	// plain: interface "", model true, app true
}

// The Content-Security-Policy an interface runs under: nothing external
// unless its _meta.ui.csp names it, and never a source that is not a
// plain https origin.
func ExampleCSP_Policy() {
	csp := apps.CSP{ConnectDomains: []string{"https://api.example.com", "*"}}
	fmt.Println(csp.Policy())
	fmt.Println("left out:", csp.Invalid())
	// Output:
	// default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src https://api.example.com; frame-src 'none'; object-src 'none'; base-uri 'self'
	// left out: [*]
}
