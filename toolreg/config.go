package toolreg

import "github.com/plainmcp/plainmcp/toolreg/mcpjson"

// Config and ServerConfig are the configuration the registry is made of,
// as package mcpjson reads it from .mcp.json files or a host fills it in.
type (
	Config       = mcpjson.Config
	ServerConfig = mcpjson.ServerConfig
)
