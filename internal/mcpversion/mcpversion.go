// Package mcpversion names the MCP protocol versions plainmcp speaks. It is
// a leaf: the config format (toolreg/mcpjson) checks a configured version
// against it without linking the session, its transports or JSON-RPC;
// mcpclient takes the versions it speaks from here.
package mcpversion

// The versions, by the date of the specification that defined each.
const (
	V20241105 = "2024-11-05" // handshake era
	V20250326 = "2025-03-26" // handshake era
	V20250618 = "2025-06-18" // handshake era
	V20251125 = "2025-11-25" // handshake era, the last
	V20260728 = "2026-07-28" // stateless era
)

// Supported returns the versions plainmcp speaks, oldest first, in a slice
// of the caller's own.
func Supported() []string {
	return []string{V20241105, V20250326, V20250618, V20251125, V20260728}
}
