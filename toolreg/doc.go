// Package toolreg puts many MCP servers behind one tool namespace: each
// server's tools are exposed as mcp__<server>__<tool> (see [Qualify]),
// filtered per server (see [ToolFilter]), and routed back to the server
// that listed them. The servers come from a config file in the format of
// Claude Code's .mcp.json.
//
//	cfg, err := toolreg.LoadConfig([]string{userFile, ".mcp.json"},
//		&toolreg.ConfigOptions{SkipMissing: true})
//	if err != nil {
//		return err // names the file, the server and the key
//	}
//	for _, s := range cfg.Servers {
//		fmt.Println(s) // one line, secrets hidden
//	}
//
// # Config
//
// A config file is a JSON object {"mcpServers": {NAME: SERVER, …}}, whose
// other top-level keys are ignored, or the bare {NAME: SERVER, …}. A
// SERVER has these keys, all optional but the ones its type needs:
//
//   - type: "stdio" (the default), "http" (Streamable HTTP) or "sse"
//     (the legacy HTTP+SSE transport); "streamable-http" and
//     "streamableHttp" are taken for "http".
//   - command (required for stdio), args, env (an object of strings), cwd:
//     a stdio server, run without a shell.
//   - url (required for http and sse, http or https), headers (an object
//     of strings).
//   - timeout (startup) and toolTimeout (each tool call): a number of
//     milliseconds, or a Go duration string such as "30s".
//   - disabled: true keeps the server from starting; such an entry needs
//     no command or url, so a later file can switch a server off by name.
//   - allow, deny: arrays of tool name patterns, as in [ToolFilter].
//
// Keys are case-sensitive. Other keys are kept in [ServerConfig.Extra] and
// otherwise ignored, since other programs share these files; a known key
// with a wrong value is an error, matching [ErrConfig], that names the file
// and the key.
//
// In command, args, env values, cwd, url and header values, ${NAME} is
// replaced by the variable NAME and ${NAME:-default} by NAME, or default
// if NAME is not set. A variable that is not set and has no default is an
// error. NAME is made of letters, digits and _, a default may not hold
// another reference, "$${" stands for a literal "${", and nothing else is
// special ($NAME is left as it is). A value is inserted as it is and never
// expanded again.
//
// [LoadConfig] reads several files in order; a server in a later file
// replaces the whole entry of the same name, as a project's .mcp.json
// overrides a user's file.
package toolreg
