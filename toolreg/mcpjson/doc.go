// Package mcpjson reads, checks and prints the configuration of MCP
// servers in the format of Claude Code's .mcp.json, and finds Claude
// Code's own files with their scopes ([ClaudeCodeFiles]). It starts
// nothing and opens no connection (it links no network code): package
// toolreg runs the servers a [Config] describes.
//
//	files, err := mcpjson.ClaudeCodeFiles(projectDir)
//	…
//	cfg, err := mcpjson.LoadConfigFiles(files, nil)
//
// # The format
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
//     taken for "http". "transport", as Saiki's configs write it, is a
//     synonym: an entry that gives both with different transports is an
//     error that names both. Without either, a server with a url and no command
//     is read as "http", with a warning to the logger, since Claude Code
//     (whose default is "stdio") skips such an entry; any other is "stdio".
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
//   - allow, deny: arrays of tool name patterns, as in toolreg.ToolFilter.
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
// [ConfigFile] with a Project reads). ~/.claude.json, which grows large
// with each project's state, is read as a stream keeping only those keys,
// up to 1 GiB; any other file is read whole, up to 64 MiB. A larger file
// is an error naming it.
//
// # Approval
//
// A project's .mcp.json comes with its repository, which anyone may have
// written: its servers carry the user's answers ([Approvals], read from
// ~/.claude.json as Claude Code keeps them), and a host starts none the
// user has not approved. To ask, it shows [ServerConfig.Disclosure]: the
// command and every argument whole, written as a shell reads them back,
// with only env and header values (and a URL's user info) hidden — never
// String, which hides by guess for logs. It keeps an explicit answer with
// [SaveApproval] (a question left unanswered is "not now", to keep
// nothing), and [ResetApprovals] forgets a project's answers.
package mcpjson
