// Package mcpext names the MCP extensions plainmcp declares and reads: the
// keys of capabilities.extensions, and the one MIME type an extension
// defines. It is a leaf, so that the session (which declares them), the
// extension packages, toolreg and mcpc share one spelling without an
// exported name in mcpclient that no host needs.
package mcpext

// Skills is the skills extension's identifier (SEP-2640), the key under
// which a server declares it in capabilities.extensions and a client does
// (mcpclient's Options.Skills).
const Skills = "io.modelcontextprotocol/skills"

// Tasks is the identifier of the stateless era's tasks extension
// (SEP-2663), declared in capabilities.extensions when mcpclient's
// Options.Tasks is set.
const Tasks = "io.modelcontextprotocol/tasks"

// UI is the MCP Apps extension's identifier (SEP-1865), the key under
// which a client declares it in capabilities.extensions (mcpclient's
// Options.UI); package mcpclient/apps holds the rest of the extension.
const UI = "io.modelcontextprotocol/ui"

// UIMimeType is the MIME type of an MCP App's HTML: the only content type
// the MCP Apps extension defines, and the one Options.UI declares.
const UIMimeType = "text/html;profile=mcp-app"
