// Package toolreg puts many MCP servers behind one tool namespace: each
// server's tools are exposed as mcp__<server>__<tool> (see [Qualify]),
// filtered per server (see [ToolFilter]), and routed back to the server
// that listed them. The servers come from config files in the format of
// Claude Code's .mcp.json, such as Claude Code's own (see
// [ClaudeCodeFiles]). This is what a host (an agent, a chat app, a bot)
// needs between its model and its MCP servers:
//
//	files, err := toolreg.ClaudeCodeFiles(projectDir) // or a list of your own
//	…
//	cfg, err := toolreg.LoadConfigFiles(files, nil)
//	if err != nil {
//		return err // names the file, the server and the key
//	}
//	reg, err := toolreg.New(ctx, cfg, &toolreg.Options{Approve: askTheUser})
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
// Skills (the skills extension, SEP-2640) are named like prompts too
// ([Registry.Skills]): a host shows its model their names and
// descriptions, and nothing of a skill is read until [Registry.LoadSkill]
// loads one by name, from the server that listed it, verified against its
// listing (see package mcpclient/skill). Each server's skills keep to
// their own namespace, so no server's skill can stand in for another's.
//
// A session that dies (a crashed stdio server, a lost HTTP session) is
// reported through Options.OnDisconnect and reopened by the next call or
// listing that needs it, no sooner than a backoff that doubles from 1 s to
// a minute with each failure: a server that crashes at start is retried,
// not hammered. Its tools stay listed meanwhile, so that a call can bring
// it back; the call fails with the server's last error until then.
//
// A call passes the approver (Options.Approve), if any, which can refuse
// it; then it runs under the server's toolTimeout. A tool that fails
// (isError) is not an error of Call: the [Result] carries a [ToolError]
// with the server's message, for the model to read. Hooks report a server
// ready (its status, after the first listing), every end of a session
// with its reason ([ErrRemoved], [ErrClosed], the failure), and every call
// with its duration and size; they and the approver run with no lock
// held, so they may call the registry, and one that panics is logged and
// contained (a panicking approver refuses).
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
// # Authorization
//
// An http or sse server without credentials in its config gets an OAuth
// client (package transport/streamhttp/oauth) on Options.TokenStore. One
// that answers 401 and has no usable token is in [StateNeedsAuth], its
// error a [*NeedsAuthError] naming the authorization server when known;
// [Registry.Authorize] runs the flow with the host's user step, stores the
// tokens and connects it.
//
// # Config
//
// A config file is a JSON object {"mcpServers": {NAME: SERVER, …}}, whose
// other top-level keys are ignored, or the bare {NAME: SERVER, …}. A file
// with no mcpServers whose members are not all objects, or none like a
// server, is another program's, such as Claude Code's settings.json: it
// holds no servers, and the load goes on. A SERVER has these keys, all
// optional but the ones its type needs:
//
//   - type: "stdio", "http" (Streamable HTTP) or "sse" (the legacy
//     HTTP+SSE transport); "streamable-http" and "streamableHttp" are
//     taken for "http". Without a type, a server with a url and no command
//     is "http", as Claude Code has it, and any other "stdio".
//   - command (required for stdio), args, env (an object of strings), cwd:
//     a stdio server, run without a shell. So a command line written in one
//     string ("command": "npx -y pkg") is an error that says to use args,
//     unless args is given or the string names a program after all: a path
//     to a file that exists, or a name found in PATH.
//   - inheritEnv: false starts a stdio server with a small safe set of our
//     environment variables (PATH, HOME, …; see transport.StdioConfig)
//     under its env, rather than all of them. Servers inherit everything
//     by default, as under Claude Code, since they count on it for API
//     keys, proxies, NODE_OPTIONS, cloud profiles and the like;
//     ConfigOptions.SafeEnv makes the safe set the default.
//   - url (required for http and sse, http or https), headers (an object
//     of strings). An Authorization header of any scheme is sent to the
//     server's origin only.
//   - headersHelper: a command, split on spaces and run without a shell at
//     each connection to an http or sse server, within 10 seconds, that
//     prints a JSON object of headers to send; its output is never shown.
//   - oauth: an object with clientId, callbackPort, authServerMetadataUrl
//     and scopes (a string or a list), as Claude Code writes it; see
//     [OAuthConfig]. Its value is also kept in Extra.
//   - timeout (startup) and toolTimeout (each tool call): a number of
//     milliseconds, or a Go duration string such as "30s".
//   - disabled: true keeps the server from starting; such an entry needs
//     no command or url, so a later file can switch a server off by name.
//   - allow, deny: arrays of tool name patterns, as in [ToolFilter].
//
// Keys are case-sensitive. Other keys are kept in [ServerConfig.Extra] and
// otherwise ignored, since other programs share these files, and reported
// through ConfigOptions.Logger, once per key and file; a known key with a
// wrong value is an error, matching [ErrConfig], that names the file and
// the key.
//
// In command, args, env values, cwd, url and header values, ${NAME} is
// replaced by the variable NAME and ${NAME:-default} by NAME, or default
// if NAME is not set. A variable that is not set and has no default is an
// error. NAME is made of letters, digits and _, a default may not hold
// another reference, "$${" stands for a literal "${", and nothing else is
// special ($NAME is left as it is). A value is inserted as it is and never
// expanded again.
//
// [LoadConfig] and [LoadConfigFiles] read several files in order; a server
// in a later file replaces the whole entry of the same name, as a
// project's .mcp.json overrides a user's file. [ClaudeCodeFiles] lists
// Claude Code's files for a project directory in that order: the user
// scope (~/.claude.json's mcpServers), the project scope (.mcp.json) and
// the local scope (~/.claude.json's projects[dir].mcpServers, which a
// [ConfigFile] with a Project reads).
package toolreg
