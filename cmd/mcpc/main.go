// Command mcpc is a command-line MCP client for many servers at once: it
// starts or reaches the servers Claude Code would for the project in the
// working directory, or one server named on the command line, runs one command
// against them (list their tools, call one, read a resource, …) and prints
// the answer for people or, with --json, for scripts.
//
//	mcpc [flags] <command> [arguments]
//
// # Servers
//
// By default mcpc reads Claude Code's files for the working directory, as
// Claude Code does, a server in a narrower scope replacing the one of the
// same name: the user scope (mcpServers in ~/.claude.json, or in
// $CLAUDE_CONFIG_DIR/.claude.json), the project scope (.mcp.json) and the
// local scope (the working directory's entry under projects in
// ~/.claude.json). Any of them may be missing. --config FILE reads FILE
// instead (repeat it to merge several files: a server in a later file
// replaces the one of the same name), and --server NAME narrows the run to
// one configured server. --stdio 'command args…' or --url URL run against
// a single ad-hoc server instead, called "server" unless --name says
// otherwise.
//
// A project's .mcp.json comes with its repository, so its servers start
// only once approved, as under Claude Code. At a terminal mcpc asks about
// each one not answered yet, showing exactly what would run: the command
// and every argument whole, written as a shell would read them back
// (control characters escaped), or the URL; the names of env entries and
// headers, never their values. "y" starts it and keeps the approval in
// ~/.claude.json (enabledMcpjsonServers), "o" starts it this once,
// "never" keeps a refusal (disabledMcpjsonServers), and Enter, "n" or the
// end of input mean "not now": nothing is kept, and the next run asks
// again. Without a terminal, a server not approved is not started.
// --trust-project starts every one this once, even one refused before
// (the flag typed now wins), shows on stderr what each runs, and keeps
// nothing; reset-project-choices
// forgets the project's answers.
//
// A key of a server entry that mcpc does not use is a warning on stderr
// ("mcpc: warning: …"). Stdio servers get mcpc's environment, as under
// Claude Code, unless their entry says "inheritEnv": false.
//
// Every server's tools are exposed as mcp__<server>__<tool>, as Claude Code
// names them, and so are prompts and skills. When one server is selected, a
// tool, prompt or skill may also be named by its own name. Resources keep
// their URIs:
// "read demo:demo://docs/readme" reads demo://docs/readme from the server
// demo; the "server:" part may be left out when one server is selected.
//
// # Commands
//
//	servers                   each server's state, transport, protocol, tool count, title, last error
//	tools                     the tools, by server
//	tool <tool>               one tool's whole definition (--json: as the server sent it)
//	call <tool> [args]        call a tool; args is a JSON object, @file or - (stdin)
//	prompts                   the prompts, by server, with their arguments
//	prompt <name> [args]      render a prompt (arguments: a JSON object of strings, @file or -)
//	resources                 the resources, by server
//	templates                 the resource templates, by server
//	read [server:]<uri>       read a resource
//	skills                    the skills, by server: names and descriptions, no file read
//	skill <name> [file]       load a skill and print its SKILL.md and its files, or one of
//	                          its files; every byte verified against the listing (size,
//	                          SHA-256 digest, frontmatter), or the skill is refused (exit 6)
//	ping                      ping every server, with the round-trip time
//	info                      each server's name, version, protocol, capabilities, instructions
//	ask <question>            ask the --model, which may call the selected servers' tools;
//	                          its text to stdout as it comes, the tools offered and one
//	                          line per tool call to stderr, the whole transcript with --json
//	login <server>            authorize mcpc at an http server with OAuth in the browser
//	                          (or a pasted redirect; --force, --scope S);
//	                          the tokens go to plainmcp/tokens.json (mode 0600) in the
//	                          user config directory, where the other commands find them
//	logout <server>           revoke the server's stored tokens where it can, and forget them
//	reset-project-choices     forget the answers kept for the project's .mcp.json servers
//	watch [server:]<uri>…     print what the servers say changed, as it comes (see Watching)
//	web                       a local page over the servers, its URL (with a random token)
//	                          the first line of stdout: tools with forms, resources, prompts,
//	                          skills, results, the wire, and tools' MCP Apps in a sandbox
//
// A server's instructions and descriptions are its own words: mcpc shows
// them as quoted data and follows none of them.
//
// # Consent in ask
//
// The model reads what tools return, and a tool's output may be written to
// steer it, so ask does not run whatever the model calls. A call runs
// only with consent: a tool named by --allow, or any under --yes, runs
// and stderr says so; so does a tool marked read-only by a server that
// --trust-annotations names (annotations are the server's word about its
// own tools, believed only of servers the user trusts);
// else the person at the terminal is shown the tool, its server and its
// arguments and asked; with no terminal, the call is refused and the
// model told why. At most 16 calls of one model turn run, 4 at once; each
// result the model reads is capped at 64 KiB. An OpenAI-compatible server
// on this machine (OPENAI_BASE_URL on loopback) needs no OPENAI_API_KEY.
//
// # Watching
//
// watch subscribes to the resources it is given (resources/subscribe in
// the handshake era; in the stateless era the session's
// subscriptions/listen request, once the server acknowledged it) and,
// with --lists or when no resource is named, hears every selected
// server's tools, prompts and resources list changes. Each event is one
// line on stdout, "[server] updated URI" or "[server] tools list
// changed", or with --json one JSON object per line ({"server", "kind":
// "resource_updated" or "list_changed", "uri" or "list"}); with --read a
// changed resource is read again and its contents follow (in "contents").
// It runs until Ctrl-C (exit 130), --count N events, or --timeout D when
// given (exit 0); a server lost meanwhile ends it with exit 1. At most
// 256 events wait to be printed: beyond that the oldest go, and stderr
// says how many.
//
// # Pages servers ask you to open
//
// A server may ask the person to open one of its pages (URL-mode
// elicitation): to sign in to a third party, pay, or enter a key mcpc
// must not see. mcpc prints the server's name, its message (control
// characters made inert) and the page's host and whole URL, and asks
// whether to open it: y opens it in the browser and accepts, n declines,
// c cancels. Only an https URL, or http on a loopback host, of at most
// 4 KiB, in printable ASCII and without user info, is shown or opened;
// any other is declined, saying why. Without a terminal the page is declined unless --open-urls
// is given (with --elicitation defaults, or --open-urls, URL mode is
// offered without one; --elicitation decline offers none). A
// handshake-era server may then say the page is done, which mcpc
// reports. A tool call answered with error -32042 (the server needs
// pages visited first) is handled the same way: mcpc shows the pages,
// opens them on yes, waits up to --timeout for the server to say they
// are done (a completion is optional, so the wait ending is no failure),
// and makes the call once more.
//
// # Flags
//
//	--config FILE    a config file in .mcp.json format (repeatable)
//	--server NAME    use only this configured server
//	--stdio CMD      a server to run, as a command line (split like a shell would, never run by one)
//	--env K=V        an environment variable for the --stdio server (repeatable)
//	--url URL        an HTTP server: Streamable HTTP, falling back to the legacy HTTP+SSE transport
//	--header 'N: v'  a header for every request to the --url server (repeatable)
//	--bearer-env VAR send the token in $VAR as "Authorization: Bearer …" (never on the command line)
//	--name NAME      the name of the --stdio or --url server (default "server")
//	--json           print results as JSON
//	--trace          print every JSON-RPC frame to stderr, each line led by "[server] "
//	--timeout D      how long a request may go without its answer or progress (default 60s,
//	                 tool calls 10m); every call asks for progress, which restarts it; given, it
//	                 also bounds each server's start (default 30s, or the server's own "timeout")
//	--total-timeout D the most a request that keeps reporting progress may take (default 30m)
//	--progress       print progress notifications to stderr (default: when stderr is a terminal)
//	--sampling MODE  answer the servers' sampling requests: "echo" replies with the last user
//	                 message (for trying servers out), PROVIDER:NAME asks a model as --model
//	                 does; default: sampling is not offered
//	--model P:NAME   the model of ask: openai:NAME (key in OPENAI_API_KEY, base URL in
//	                 OPENAI_BASE_URL) or anthropic:NAME (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL)
//	--max-turns N    the most model turns ask takes (default 10)
//	--allow TOOL     ask: run calls of TOOL without asking (* matches any run; repeatable)
//	--yes            ask: run every call that needs consent, without asking
//	--tools TOOL     ask: offer the model only these tools (as --allow)
//	--continue FILE  ask: go on with the conversation saved in FILE, and save it there (0600)
//	--no-stream      ask: ask the provider for whole answers
//	--max-tokens-field F  openai models: max_completion_tokens (default) or max_tokens
//	--elicitation M  answer elicitation requests: "defaults" accepts with the schema's defaults,
//	                 "decline" declines; default: elicitation is not offered
//	--open-urls      open the pages servers ask the person to visit without asking (see below)
//	--root URI       offer a root to the servers (repeatable)
//	--lists          watch: the lists too, besides the resources named
//	--read           watch: read a resource again when it changes
//	--count N        watch: end after N events
//	--addr A         web: the page's loopback address (default 127.0.0.1:0, a free port)
//	--open           web: open the page in the browser
//	--yes            web: calls from apps and ?call= links run without asking
//
// Flags may come before or after the command and its arguments; "--" ends
// them. mcpc -h prints a summary.
//
// # Files
//
// Tokens go to plainmcp/tokens.json (0600) in the user config directory.
// plainmcp/eras.json in the user cache directory remembers, for a week,
// which configured servers never answered the server/discover probe: mcpc
// then starts them with initialize at once instead of waiting the probe's
// five seconds on every command. It remembers the era, never a version:
// initialize offers the newest handshake version and the server may answer
// an older one. A remembered server that refuses the handshake is
// forgotten and probed in the same run. Deleting it is always safe.
//
// # Exit status
//
// Scripts can tell the failures apart by the exit status:
//
//	0    ok
//	1    any other failure (a server's error answer, an unknown name, a file not written)
//	2    usage: the command line is wrong
//	3    config: a config file is wrong, or names no usable server (disabled, not configured)
//	4    connection: a server did not start, did not answer, was lost, or needs mcpc login
//	5    tool error: the tool answered with isError, or its task failed
//	6    refused: consent or approval withheld, an untrusted URL, a skill failing its checks
//	130  interrupted: Ctrl-C cancels the request in flight, which the server
//	     is told of, and shuts the servers down
//	129  the same for SIGHUP (the terminal closed), 143 for SIGTERM
//
// A listing with a server missing prints what the others offered and exits
// with that server's code (`servers` too: the table says which failed). A
// failure is one line on stderr, which never holds a header's value or a
// token.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// shutdownSignals end a run as Ctrl-C does: the request in flight is
// cancelled (the server is told) and every server is shut down, its
// whole process group, before mcpc exits with 128 + the signal's number.
// A terminal closed under mcpc (SIGHUP) or a supervisor stopping it
// (SIGTERM) must not leave servers behind. (On Linux a server also gets
// SIGKILL if mcpc dies without shutting it down, SIGKILL included: see
// package transport.)
var shutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	os.Exit(runWithSignals(os.Args[1:]))
}

// runWithSignals is run with shutdownSignals cancelling it; after the
// first, a second one ends mcpc at once.
func runWithSignals(args []string) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, shutdownSignals...)
	defer signal.Stop(sigs)
	go func() {
		select {
		case sig := <-sigs:
			signal.Stop(sigs) // the next one has its default effect
			cancel(signalCause{sig})
		case <-ctx.Done():
		}
	}()
	return run(ctx, args, os.Stdout, os.Stderr)
}
