package jsonrpc

import (
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// Code is a JSON-RPC error code; String names the standard ones. The
// protocol above JSON-RPC defines codes of its own (MCP's -32002, say):
// any int64 converts to a Code.
type Code = rpcwire.Code

// Standard JSON-RPC 2.0 error codes.
const (
	CodeParseError     = rpcwire.CodeParseError     // the frame was not valid JSON
	CodeInvalidRequest = rpcwire.CodeInvalidRequest // valid JSON, but not a JSON-RPC request
	CodeMethodNotFound = rpcwire.CodeMethodNotFound // the method is unknown to the receiver
	CodeInvalidParams  = rpcwire.CodeInvalidParams  // the params did not fit the method
	CodeInternalError  = rpcwire.CodeInternalError  // the receiver failed while handling the request
)

// Error is a JSON-RPC error object: Code, Message and, if any, Data (the
// peer's JSON, as it came). It travels both ways: a handler returns one to
// answer a request with a specific code, and Call returns one when the
// peer answered with an error. Its text quotes the peer's message on one
// line, escaped and cut short; Is compares codes, so
// errors.Is(err, ErrMethodNotFound) holds for any method-not-found answer
// whatever its message.
type Error = rpcwire.Error

// Sentinel errors, comparable with errors.Is against any *Error carrying the
// same code, whether it was made here or decoded from the wire.
var (
	ErrParse          = &Error{Code: CodeParseError, Message: "parse error"}
	ErrInvalidRequest = &Error{Code: CodeInvalidRequest, Message: "invalid request"}
	ErrMethodNotFound = &Error{Code: CodeMethodNotFound, Message: "method not found"}
	ErrInvalidParams  = &Error{Code: CodeInvalidParams, Message: "invalid params"}
	ErrInternal       = &Error{Code: CodeInternalError, Message: "internal error"}
)

// ErrClosed is returned by calls on a Conn or Stream that was closed by this
// side. It is also what pending calls fail with when Close runs.
var ErrClosed = errors.New("jsonrpc: connection closed")

// ErrDisconnected is wrapped, together with the cause, by every error a
// pending or new call gets after the stream ended without Close: the peer
// hung up, a server process exited, a network connection broke.
var ErrDisconnected = errors.New("jsonrpc: connection lost")

// ErrResponseLost is matched (errors.Is) by the error of a call whose
// response its stream reported lost (an HTTP response stream that broke,
// say) while the connection lives on. Whether the request ran is unknown;
// sending it again is the protocol layer's decision.
var ErrResponseLost = rpcwire.ErrResponseLost

// NewError returns an *Error with the code and a formatted message.
func NewError(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
