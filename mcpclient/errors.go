package mcpclient

import "github.com/plainmcp/plainmcp/jsonrpc"

// Error codes that MCP gives meaning to. They arrive in a *jsonrpc.Error,
// like the standard JSON-RPC codes, and compare with errors.Is:
//
//	errors.Is(err, &jsonrpc.Error{Code: mcpclient.CodeResourceNotFound})
const (
	CodeUserRejected           jsonrpc.Code = -1     // the user declined a sampling request
	CodeResourceNotFound       jsonrpc.Code = -32002 // resources/read of an unknown URI
	CodeHeaderMismatch         jsonrpc.Code = -32020 // an HTTP header disagrees with the body (2026-07-28)
	CodeMissingCapability      jsonrpc.Code = -32021 // the request needs a client capability that was not declared (2026-07-28)
	CodeUnsupportedVersion     jsonrpc.Code = -32022 // the protocol version is not spoken; data.supported lists those that are (2026-07-28)
	CodeURLElicitationRequired jsonrpc.Code = -32042 // the server needs the user to visit a URL first (2025-11-25)
)
