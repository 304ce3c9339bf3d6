package mcpclient

import (
	"errors"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The errors of a session, matched with errors.Is. A closed session's
// calls fail with jsonrpc.ErrClosed, one lost with jsonrpc.ErrDisconnected.

// ErrPagination is wrapped by the error an iterator yields when a server
// paginates without end: it repeated a cursor, or the page limit
// (Options.MaxPages) was reached.
var ErrPagination = errors.New("mcpclient: runaway pagination")

// ErrMalformedResult is wrapped when a result lacks a field the protocol
// requires.
var ErrMalformedResult = errors.New("mcpclient: malformed result")

// ErrUnsupportedVersion is wrapped by Connect's error when the server
// answers with a protocol version plainmcp does not speak.
var ErrUnsupportedVersion = errors.New("mcpclient: unsupported protocol version")

// Error codes that MCP gives meaning to. They arrive in a *jsonrpc.Error,
// like the standard JSON-RPC codes, and compare with errors.Is:
//
//	errors.Is(err, &jsonrpc.Error{Code: mcpclient.CodeResourceNotFound})
const (
	CodeUserRejected           jsonrpc.Code = -1     // the user declined a sampling request
	CodeResourceNotFound       jsonrpc.Code = -32002 // resources/read of an unknown URI
	CodeURLElicitationRequired jsonrpc.Code = -32042 // the server needs the user to visit a URL first (2025-11-25); see URLElicitations
)

// The stateless era's codes that the session answers itself (it retries,
// or falls back to the handshake era) rather than a host. One that still
// reaches a caller is a *jsonrpc.Error with its code, like any other.
const (
	codeHeaderMismatch     jsonrpc.Code = -32020 // an HTTP header disagrees with the body (2026-07-28)
	codeMissingCapability  jsonrpc.Code = -32021 // the request needs a client capability that was not declared (2026-07-28)
	codeUnsupportedVersion jsonrpc.Code = -32022 // the protocol version is not spoken; data.supported lists those that are (2026-07-28)
)
