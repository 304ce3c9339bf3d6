// Command mcp-demo-server serves the plainmcp demo MCP server over stdio:
// one JSON-RPC frame per line on standard input and standard output, as
// MCP's stdio transport specifies. It exits with status 0 when standard
// input ends. Standard output carries frames and nothing else; logs, when
// asked for, go to standard error.
//
// Usage:
//
//	mcp-demo-server [-page-size n] [-extra-tools n] [-stateless] [-pages] [-tick d] [-log]
//
// With -stateless it speaks the stateless era (2026-07-28) too: it answers
// server/discover, so a client that probes with it (as plainmcp does)
// speaks that era with it; without, such a client falls back to
// initialize.
//
// With -pages it offers the visit tool, whose URL-mode elicitation sends
// the user to a page it serves on 127.0.0.1 (a free port, opened on the
// first visit).
//
// With -tick d it runs a clock for clients that watch it (mcpc watch):
// every d the resource demo://data/counter counts up and the tool
// "dynamic" comes or goes.
//
// The server's tools, prompts and resources are described in package
// internal/demoserver.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/demoserver/pages"
	"github.com/plainmcp/plainmcp/transport"
)

func main() {
	pageSize := flag.Int("page-size", demoserver.DefaultPageSize, "items per page of tools/list, prompts/list and resources/list")
	extraTools := flag.Int("extra-tools", 0, "add this many generated tools, named tool-0001, tool-0002, …")
	stateless := flag.Bool("stateless", false, "speak the stateless era (2026-07-28) too: answer server/discover")
	withPages := flag.Bool("pages", false, "offer the visit tool, which asks the user to open a page served on loopback")
	tick := flag.Duration("tick", 0, "every tick, count up demo://data/counter and add or remove the dynamic tool (0: never)")
	logging := flag.Bool("log", false, "log to standard error at debug level")
	linger := flag.Duration("linger", demoserver.DefaultLinger, "how long to go on answering requests in flight once standard input ends")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: mcp-demo-server [flags]\n\nServes the plainmcp demo MCP server on standard input and output.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}

	var logger *slog.Logger
	if *logging {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	opts := &demoserver.Options{
		PageSize:   *pageSize,
		ExtraTools: *extraTools,
		Stateless:  *stateless,
		Logger:     logger,
		Linger:     *linger,
		Tick:       *tick,
	}
	if *withPages {
		p := &pages.Server{}
		defer p.Close()
		opts.VisitPage = p.Page
	}
	srv := demoserver.New(opts)
	stream := transport.NewLineStream(os.Stdin, os.Stdout, &transport.LineOptions{Logger: logger})

	// No signal handling: SIGINT and SIGTERM end the process, which is all a
	// stdio server needs, and a read blocked on standard input could not be
	// interrupted anyway.
	if err := srv.Serve(context.Background(), stream); err != nil {
		fmt.Fprintf(os.Stderr, "mcp-demo-server: %v\n", err)
		os.Exit(1)
	}
}
