// Command stdiohost is a host of many stdio MCP servers, and nothing else:
// it reads a .mcp.json, starts every server it names through the
// registry, prints one list of their tools and, if asked, calls one. It is
// what a constrained host (a CLI, an editor plugin, a device) that spawns
// only local servers looks like, and make check proves that it links no
// network code: no net/http, no crypto/tls.
//
// Usage:
//
//	stdiohost [-config .mcp.json] [-call mcp__server__tool] [-args JSON]
//
// For example, against the repository's own .mcp.json (the bundled demo
// server, go build -o bin/ ./cmd/...):
//
//	go run ./examples/stdiohost -call mcp__demo__add -args '{"a":2,"b":40}'
//
// An http or sse entry of the file is reported as failed: this host dials
// stdio alone, the registry's default.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

func main() {
	config := flag.String("config", ".mcp.json", "the config file")
	call := flag.String("call", "", "a tool to call, by its exposed name")
	args := flag.String("args", "{}", "the call's arguments, a JSON object")
	flag.Parse()
	log.SetFlags(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	cfg, err := mcpjson.LoadConfig([]string{*config}, nil)
	if err != nil {
		log.Fatal(err)
	}
	reg, err := toolreg.New(ctx, cfg, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer reg.Close()
	for _, s := range reg.Servers() {
		if s.Err != nil {
			fmt.Fprintf(os.Stderr, "%s: %s: %v\n", s.Name, s.State, s.Err)
		}
	}
	tools, err := reg.Tools(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Fprintln(os.Stderr, t.Name)
	}
	if *call == "" {
		return
	}
	var a map[string]any
	if err := json.Unmarshal([]byte(*args), &a); err != nil {
		log.Fatalf("-args: %v", err)
	}
	res, err := reg.Call(ctx, *call, a)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Summary(20_000))
}
