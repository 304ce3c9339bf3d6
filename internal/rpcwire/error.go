package rpcwire

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/plainmcp/plainmcp/internal/safe"
)

// Code is a JSON-RPC error code. The protocol above JSON-RPC defines codes
// of its own (MCP's -32002, say); any int64 is a Code.
type Code int64

// Standard JSON-RPC 2.0 error codes.
const (
	CodeParseError     Code = -32700 // the frame was not valid JSON
	CodeInvalidRequest Code = -32600 // valid JSON, but not a JSON-RPC request
	CodeMethodNotFound Code = -32601 // the method is unknown to the receiver
	CodeInvalidParams  Code = -32602 // the params did not fit the method
	CodeInternalError  Code = -32603 // the receiver failed while handling the request
)

// String names a standard code ("method not found") and writes any other
// as its number.
func (c Code) String() string {
	switch c {
	case CodeParseError:
		return "parse error"
	case CodeInvalidRequest:
		return "invalid request"
	case CodeMethodNotFound:
		return "method not found"
	case CodeInvalidParams:
		return "invalid params"
	case CodeInternalError:
		return "internal error"
	}
	return strconv.FormatInt(int64(c), 10)
}

// Error is a JSON-RPC error object. It travels both ways: a handler returns
// one to answer a request with a specific code, and a call returns one when
// the peer answered with an error.
//
// Is compares codes, so errors.Is(err, jsonrpc.ErrMethodNotFound) holds for
// any method-not-found answer whatever its message.
type Error struct {
	Code    Code            `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error formats the code and message; the data is left out (it may be
// large). The message is usually the peer's, and error text ends up in
// logs and on terminals: it is quoted on one line, at most maxErrorText
// bytes, with control characters escaped (Message keeps it as it came).
func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", int64(e.Code), safe.Line(e.Message, maxErrorText))
}

// maxErrorText bounds the message an *Error's text quotes.
const maxErrorText = 1 << 10

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}
