package toolreg_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport"
)

// A host reads its servers from a .mcp.json file, connects them all, shows
// the model one list of tools, and routes the model's calls back by name.
func Example() {
	cfg, err := mcpjson.ParseConfig([]byte(`{
		"mcpServers": {
			"notes": {"command": "notes-server", "deny": ["slow", "big"]},
			"search.web": {"command": "search-server", "allow": ["echo", "add"]}
		}
	}`), ".mcp.json", nil)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	reg, err := toolreg.New(ctx, cfg, &toolreg.Options{
		// Without Dial the registry starts each server's command; here
		// both servers are the demo server, run in this process.
		Dial:     serveInProcess,
		Reserved: []string{"mcp__notes__touch"}, // a name the host keeps for itself
	})
	if err != nil {
		log.Fatal(err)
	}
	defer reg.Close()

	tools, err := reg.Tools(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		if t.Server == "search.web" || strings.HasPrefix(t.Def.Name, "e") || strings.HasPrefix(t.Def.Name, "t") {
			fmt.Printf("%-40s -> %s / %s\n", t.Name, t.Server, t.Def.Name)
		}
	}

	res, err := reg.Call(ctx, "mcp__search_web__add", map[string]int{"a": 2, "b": 40})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("add:", res.Summary(200))

	res, err = reg.Call(ctx, "mcp__notes__fail", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("fail:", res.Err)
	// Output:
	// mcp__notes__echo                         -> notes / echo
	// mcp__notes__elicit                       -> notes / elicit
	// mcp__notes__touch_641b2c06               -> notes / touch
	// mcp__search_web__echo                    -> search.web / echo
	// mcp__search_web__add                     -> search.web / add
	// add: 42
	// fail: tool "fail" of server "notes" failed: the fail tool always fails: this is a tool error, returned as a result with isError set
}

// serveInProcess runs the demo server over an in-memory pipe.
func serveInProcess(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	client, server := transport.Pipe()
	go demoserver.New(&demoserver.Options{Name: sc.Name}).Serve(context.Background(), server)
	return mcpclient.Connect(ctx, client, opts)
}

// A host with many tools finds the few a request needs: SearchTools
// ranks them by what is asked, in other words than theirs too.
func ExampleRegistry_SearchTools() {
	cfg, err := mcpjson.ParseConfig([]byte(`{"mcpServers": {"demo": {"command": "demo-server"}}}`), ".mcp.json", nil)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	reg, err := toolreg.New(ctx, cfg, &toolreg.Options{Dial: serveInProcess})
	if err != nil {
		log.Fatal(err)
	}
	defer reg.Close()

	for _, q := range []string{"sum two numbers", "repeat back my text", "select:mcp__demo__fail"} {
		found, err := reg.SearchTools(ctx, q, 1)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-24s -> %s\n", q, found[0].Name)
	}
	// Output:
	// sum two numbers          -> mcp__demo__add
	// repeat back my text      -> mcp__demo__echo
	// select:mcp__demo__fail   -> mcp__demo__fail
}
