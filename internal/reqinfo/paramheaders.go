package reqinfo

import (
	"encoding/json"

	"github.com/plainmcp/plainmcp/internal/paramheader"
)

// ParamHeaders is how a session mirrors tool arguments into Mcp-Param
// headers, which only the Streamable HTTP wire of 2026-07-28 carries: Of
// checks a listed tool's x-mcp-header annotations (a tool whose
// annotations break the rules is left out of the listing), Values builds
// a call's headers from its params.
//
// Package transport/streamhttp sets both in its init, and nothing else
// ever sets them: the rules (package paramheader) are linked only into a
// program that links the HTTP transport, and a stdio-only program does
// not carry them. A session asks them only over a stream that shapes its
// requests by the protocol (transport.ProtocolSetter), in the stateless
// era; where they are nil, no tool is checked and no call carries one.
var ParamHeaders struct {
	Of     func(inputSchema json.RawMessage) ([]paramheader.Header, error)
	Values func(specs []paramheader.Header, params []byte) (map[string]string, error)
}
