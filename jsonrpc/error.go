package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/safe"
)

// Standard JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700 // the frame was not valid JSON
	CodeInvalidRequest = -32600 // valid JSON, but not a JSON-RPC request
	CodeMethodNotFound = -32601 // the method is unknown to the receiver
	CodeInvalidParams  = -32602 // the params did not fit the method
	CodeInternalError  = -32603 // the receiver failed while handling the request
)

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

// Error is a JSON-RPC error object. It travels both ways: a handler returns
// one to answer a request with a specific code, and Call returns one when the
// peer answered with an error.
//
// Is compares codes, so errors.Is(err, ErrMethodNotFound) holds for any
// method-not-found answer whatever its message.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error formats the code and message; the data is left out (it may be
// large). The message is usually the peer's, and error text ends up in
// logs and on terminals: it is quoted on one line, at most maxErrorText
// bytes, with control characters escaped (Message keeps it as it came).
func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, safe.Line(e.Message, maxErrorText))
}

// maxErrorText bounds the message an *Error's text quotes.
const maxErrorText = 1 << 10

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// NewError returns an *Error with the code and a formatted message.
func NewError(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
