package streamhttp

import (
	"github.com/plainmcp/plainmcp/internal/paramheader"
	"github.com/plainmcp/plainmcp/internal/reqinfo"
)

// The x-mcp-header rules travel with this transport, the only one whose
// wire mirrors tool arguments into Mcp-Param headers: a session finds
// them in reqinfo.ParamHeaders when this package is linked, and a
// stdio-only program links neither them nor this.
func init() {
	reqinfo.ParamHeaders.Of = paramheader.Of
	reqinfo.ParamHeaders.Values = paramheader.Values
}
