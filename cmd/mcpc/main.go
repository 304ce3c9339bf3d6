// Command mcpc is a command-line MCP client: it starts or reaches one MCP
// server, runs one command against it (list its tools, call one, read a
// resource, …) and prints the answer for people or, with --json, for
// scripts.
//
//	mcpc [flags] --stdio 'command args…' <command> [arguments]
//	mcpc [flags] --url https://host/mcp <command> [arguments]
//
// Commands:
//
//	info                      server name, version, protocol, capabilities, instructions
//	tools                     the server's tools
//	call <tool> [json-args]   call a tool; exits 1 if the result has isError
//	prompts                   the server's prompts
//	prompt <name> [json-args] render a prompt (arguments as a JSON object of strings)
//	resources                 the server's resources
//	templates                 the server's resource templates
//	read <uri>                read a resource
//	ping                      check the server answers
//
// Flags:
//
//	--stdio CMD      the server to run, as a command line (split like a shell would, never run by one)
//	--env K=V        an environment variable for the server (repeatable)
//	--url URL        an HTTP server: Streamable HTTP, falling back to the legacy HTTP+SSE transport
//	--header 'N: v'  a header for every HTTP request (repeatable)
//	--bearer-env VAR send the token in $VAR as "Authorization: Bearer …" (never on the command line)
//	--json           print results as JSON
//	--trace          print every JSON-RPC frame sent and received to stderr
//	--timeout D      per-request timeout (default 60s)
//	--progress       print progress notifications to stderr (default: when stderr is a terminal)
//	--sampling MODE  answer the server's sampling requests: "echo" replies with the last user
//	                 message (for trying servers out); default: sampling is not offered
//	--elicitation M  answer elicitation requests: "defaults" accepts with the schema's defaults,
//	                 "decline" declines; default: elicitation is not offered
//	--root URI       offer a root to the server (repeatable)
//
// mcpc exits 0 on success, 1 when the server or the tool failed, 2 on a
// usage error; a failure is one line on stderr.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
