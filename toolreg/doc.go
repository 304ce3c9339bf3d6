// Package toolreg puts many MCP servers behind one tool namespace: each
// server's tools are exposed as mcp__<server>__<tool> (see [Qualify]),
// filtered per server (see [ToolFilter]), and routed back to the server
// that listed them. The servers come from config files in the format of
// Claude Code's .mcp.json, such as Claude Code's own, which package
// toolreg/mcpjson reads. This is what a host (an agent, a chat app, a
// bot) needs between its model and its MCP servers:
//
//	files, err := mcpjson.ClaudeCodeFiles(projectDir) // or a list of your own
//	…
//	cfg, err := mcpjson.LoadConfigFiles(files, nil)
//	if err != nil {
//		return err // names the file, the server and the key
//	}
//	reg, err := remote.New(ctx, cfg, &toolreg.Options{Approve: askTheUser})
//	if err != nil {
//		return err
//	}
//	defer reg.Close()
//	tools, err := reg.Tools(ctx) // give these to the model
//	…
//	res, err := reg.Call(ctx, "mcp__github__create_issue", args) // the model's choice
//	history = append(history, res.Summary(20_000))
//
// # The registry
//
// [New] connects every enabled server at once and lists its tools, both
// within the server's own startup timeout. By default a server that fails
// is reported in [Registry.Servers] with its error (a stdio server's
// stderr is quoted) and the others carry on; Options.Strict makes any
// failure fatal. With Options.Lazy nothing starts until it is needed: a
// call starts the one server its tool's name points to, and a listing
// starts them all. Exactly one connection attempt per server is ever in
// flight; whoever else needs the server waits for that one.
//
// [Registry.Tools] returns every server's tools, named. A server's listing
// is cached until the server says it changed (notifications/tools/
// list_changed; in the stateless era the session keeps a
// subscriptions/listen request open for that), and then fetched once,
// however many goroutines ask at the same time. The names are made once per
// listing, into a table that [Registry.Call] looks names up in: a call never
// parses a name, so a server called "a__b" or a tool called "x.y" routes
// just as well. Prompts are named the same way ([Registry.Prompts],
// [Registry.GetPrompt]); resources keep their URIs and are read by server
// and URI ([Registry.ReadResource]), since two servers may offer the same
// URI.
//
// Skills (the skills extension, SEP-2640) are named like prompts too, by
// package toolreg/skills: a host shows its model their names and
// descriptions, and nothing of a skill is read until skills.Load loads
// one by name, from the server that listed it, verified against its
// listing (see package mcpclient/skill). Each server's skills keep to
// their own namespace, so no server's skill can stand in for another's.
// A host that never calls toolreg/skills links none of it.
//
// A session that dies (a crashed stdio server, a lost HTTP session) is
// reported through Options.OnDisconnect and reopened by the next call or
// listing that needs it, no sooner than a backoff that doubles from 1 s to
// a minute with each failure: a server that crashes at start is retried,
// not hammered; one that dies within a minute of connecting counts as a
// failure too. Its tools stay listed meanwhile, so that a call can bring
// it back; the call fails with the server's last error until then. A
// listing does not wait for the restart it starts (which may take the
// whole startup timeout): it answers at once with the server's last
// listing, and the restart goes on in the background.
//
// A call passes the approver (Options.Approve), if any, which can refuse
// it; then it runs under the server's toolTimeout. A tool that fails
// (isError) is not an error of Call: the [Result] carries a [ToolError]
// with the server's message, for the model to read. The approver sees
// the call's arguments as JSON and the tool's annotations ([Call]). Hooks
// report a server ready (its status, once it is in Servers), every end of
// a session with its reason ([ErrRemoved] and [ErrRegistryClosed] for the ends the
// host asked for, else the failure), and every call with its duration and
// size. They run in order, outside every lock, connection attempt and
// listing, after what they report is committed: they may call any method
// of the registry, and a start never waits for them. One that panics is
// logged and contained (a panicking approver refuses).
//
// A call to a name the table lacks lists again, once, the server its
// mcp__<server>__ prefix names, so that a tool the server has just added
// is callable at once. Only what a server's capabilities offer is listed.
//
// # Search
//
// [Registry.SearchTools] ranks every server's tools by what is asked
// ("open a pull request", "what is in this folder"): BM25F over the
// name's words, title, description, arguments and server name, with
// stems, synonyms of tool use and name prefixes; "select:NAME,NAME" picks
// by name. A host that has more tools than its model should read offers
// a search instead of every definition (see bridge's tool search). When a
// server's listing changes, only that server's part of the index is built
// again.
//
// # Trust
//
// A project server (mcpjson.ScopeProject) whose ServerConfig.Approval
// is pending or rejected is never started: it is in [StateUnapproved]
// (see package toolreg/mcpjson for where the approvals come from).
//
// [Registry.Groups] gives one group per server (title, description,
// instructions, its tools' names) for hosts that show tools by server or
// let a model pick a group first; [Registry.Refresh] lists a server again
// when it never says its lists changed. A listing that a server paginates
// without end keeps the pages it got, marked in the status
// ([ServerStatus].ListErr).
//
// The servers' titles and instructions are in [ServerStatus]: they come
// from the servers and are data to show or weigh, never instructions for
// the host to follow.
//
// # MCP Apps
//
// A tool may come with an interface (the io.modelcontextprotocol/ui
// extension; set Options.Session.UI to declare it). [Registry.ModelTools]
// is [Registry.Tools] without the tools whose visibility leaves out the
// model: the list to offer one, for every host. The rest is package
// toolreg/ui, which only a host that renders interfaces calls (and
// links): ui.Read reads a tool's ui:// interface, checked, once per
// server until the server's resources change or it reconnects;
// ui.CallForApp is the call an app makes through its host: only its own
// server's tools, only those visible to apps.
//
// # Transports
//
// The registry opens each server's session through Options.Dial. Left
// nil, the registry starts stdio servers only, so that a host of local
// servers links no HTTP or TLS. Package toolreg/remote's Dialer (and
// remote.New, toolreg.New with it) dials http and sse servers too, with
// their headers, headersHelper and OAuth. A Dial that fails with a
// [*NeedsAuthError] puts the server in [StateNeedsAuth]: it answered 401
// and has no usable token; the Dialer's Authorize runs the flow with the
// host's user step, stores the tokens and connects it
// ([Registry.Reconnect]).
//
// # Config
//
// A [Config] is a list of [ServerConfig]s, which package
// toolreg/mcpjson reads from files in Claude Code's .mcp.json format (and
// Claude Code's own files, with their scopes), or which a host fills in.
// The format is apart from the registry so that a program may read,
// check and print configs without the registry, and the registry works
// with servers from anywhere.
package toolreg
