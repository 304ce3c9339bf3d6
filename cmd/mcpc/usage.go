package main

// usage is what mcpc -h prints; the package doc in main.go says the same
// at more length.
const usage = `usage: mcpc [flags] <command> [arguments]

mcpc runs one command against the MCP servers Claude Code would start in the
working directory (~/.claude.json's user and local scopes, ./.mcp.json), those
of --config files, or one server given by --stdio or --url.
Tools, prompts and skills are named mcp__<server>__<name>; with one server
selected, the bare name works too.

Commands:
  servers                    each server's state, scope, transport, protocol, tools, title, last error
  tools                      the tools, by server; with --search QUERY the ten that best answer
                             QUERY, ranked (--json: with each score's reasons); select:NAME,NAME
                             picks tools by name
  tool <tool>                one tool's whole definition: each argument (nested ones too) with its
                             title, type, required, default and choices; annotations, task support,
                             app; --json: the server's object with every member it sent
  call <tool> [args]         call a tool; args: a JSON object, @file or - (stdin); exits 5 on isError
  prompts                    the prompts, by server, with their arguments
  prompt <name> [args]       render a prompt; args: a JSON object of strings, @file or -
  resources                  the resources, by server
  templates                  the resource templates, by server
  read [server:]<uri>        read a resource; the server is needed when several are selected
  skills                     the skills, by server (nothing of them is read)
  skill <name> [file]        load a skill: its SKILL.md, verified, and its files; or one file, verified
  ping                       ping every server; fails if any does
  info                       each server's name, version, protocol, capabilities, instructions
  ask <question>             ask --model, which may call the selected servers' tools: its text
                             to stdout as it comes, the tools offered and a line per tool call to
                             stderr (--json: the transcript). Tool calls run only with consent:
                             asked at the terminal, or --allow / --yes, or marked read-only by a
                             server named by --trust-annotations; else refused
  login <server>             authorize mcpc at an http server with OAuth in the browser (the redirect
                             comes back to 127.0.0.1, at the config's oauth.callbackPort or the port
                             of the client registered before, or is pasted on stdin); the tokens go to
                             plainmcp/tokens.json in the user config directory. A token that works is
                             kept unless --force; --scope S asks for more scopes
  logout <server>            revoke the server's stored tokens where it can, and forget them
  reset-project-choices      forget the answers kept for ./.mcp.json's servers (as Claude Code's
                             command of that name): mcpc asks about each again
  watch [server:]<uri>...    print what the servers say changed, a line (--json: a JSON line) per
                             event: the resources named (subscribed, both eras) and, with --lists
                             or no resource named, every server's tools/prompts/resources lists;
                             --read reads a resource again when it changes; ends at Ctrl-C (130),
                             after --count N events or at --timeout D, if given (0)
  web                        a local page over the servers (URL on the first line of stdout): tools
                             with forms, resources, prompts, skills, results, the wire, and tools'
                             MCP Apps; --addr 127.0.0.1:PORT, --open (a browser), --yes (calls from
                             apps and links run without asking)

Servers:
  --config FILE              a config file in .mcp.json format (repeatable; later files win);
                             when given, Claude Code's files are not read unless listed
  --server NAME              use only this configured server
  --stdio 'CMD ARGS'         a server to run (split like a shell would, never run by one)
  --env K=V                  an environment variable for the --stdio server (repeatable)
  --url URL                  an HTTP server: Streamable HTTP, falling back to legacy HTTP+SSE
  --header 'Name: value'     a header for every request to the --url server (repeatable)
  --bearer-env VAR           send the token in $VAR as "Authorization: Bearer ..."
  --name NAME                the name of the --stdio or --url server (default "server")
  --trust-project            start the servers of ./.mcp.json that are not approved, this once, even
                             one refused before (at a terminal, mcpc asks, showing what would run:
                             y keeps a yes where Claude Code does, never keeps a no, o starts it
                             once, Enter or n is "not now" and keeps nothing)

Output and behaviour:
  --json                     print results as JSON
  --trace                    print every JSON-RPC frame to stderr, each line led by [server]
  --timeout D                how long a request may go without its answer or progress: "30s", or
                             milliseconds as in a config (default 60s, tool calls 10m); progress
                             restarts it, and every call asks for progress (shown with --progress)
  --total-timeout D          the most a request that keeps reporting progress may take (default 30m)
  --protocol VERSION         pin the protocol version (2024-11-05 … 2026-07-28)
  --progress                 show progress on stderr: one line on a terminal, JSON events with --json
                             (default: when stderr is a terminal)
  --sampling MODE            answer the servers' sampling requests: "echo" replies with the last
                             user message; PROVIDER:NAME asks a model (see --model)
  --model PROVIDER:NAME      the model of ask: openai:NAME (OPENAI_API_KEY, OPENAI_BASE_URL)
                             or anthropic:NAME (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL)
  --max-turns N              the most model turns ask takes (default 10)
  --allow TOOL               ask: run calls of TOOL without asking (an exposed name; * matches any
                             run of characters; repeatable or comma-separated)
  --yes                      ask: run every call that needs consent, without asking
  --trust-annotations SERVER ask and web: believe the tool annotations of SERVER (* for all), so
                             that its tools marked read-only run without asking; a server's
                             annotations are its word about its own tools (repeatable)
  --tools TOOL               ask: offer the model only these tools (as --allow)
  --continue FILE            ask: go on with the conversation saved in FILE, and save it there
  --no-stream                ask: ask the provider for whole answers
  --tool-search MODE         ask: auto (default), on or off: give the model a search_tools tool and
                             the definitions of the tools it finds, not every definition; auto
                             searches once they would pass 10 % of a 128k-token context. Says on
                             stderr how many definitions were offered and how many deferred
  --max-tokens-field F       openai models: send the token limit as max_completion_tokens
                             (default) or max_tokens (what many compatible servers read)
  --elicitation MODE         answer elicitation requests: "defaults" or "decline"
                             (default: ask at the terminal, field by field, when there is one)
  --open-urls                open the pages servers ask you to visit (URL-mode elicitation) without
                             asking; at a terminal you are asked, elsewhere they are declined
  --root URI                 offer a root to the servers (repeatable)
  --lists, --read, --count N watch: the lists too, read a changed resource, end after N events
  --addr ADDR, --open, --yes web: the page's loopback address (default 127.0.0.1:0), open it
                             in the browser, run calls from apps and links without asking

MCP_TIMEOUT and MCP_TOOL_TIMEOUT (milliseconds), as Claude Code reads them, bound each server's
start and each tool call's whole time (progress or not) when its config does not.
Flags may come before or after the command; -- ends them.
A call starts only the server its tool belongs to; other commands start all.
Exit status:
  0    ok
  1    any other failure (a server's error answer, an unknown name, a file not written)
  2    usage: the command line is wrong
  3    config: a config file is wrong, or names no usable server (disabled, not configured)
  4    connection: a server did not start, did not answer, was lost, or needs mcpc login
  5    tool error: the tool answered with isError, or its task failed
  6    refused: consent or approval withheld, an untrusted URL, a skill failing its checks
  130  interrupted (Ctrl-C); 129 and 143 for SIGHUP and SIGTERM, which mcpc handles alike
`
