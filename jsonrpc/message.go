package jsonrpc

import (
	"encoding/json"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// A Request is what a Handler receives: a request or, with a zero ID, a
// notification.
type Request struct {
	ID     ID
	Method string
	Params json.RawMessage
}

// ID is a request id. JSON-RPC lets the sender choose a number or a string,
// and the receiver must echo it exactly; an ID keeps which one it was and,
// for a number that is not a plain integer, its exact text. The zero ID
// means "no id" (a notification, or null in an error response). IDs are
// comparable values and can be map keys; two IDs are equal when they would
// be written out the same. String formats one for humans (numbers bare,
// strings quoted, the zero ID as null); IsValid reports whether it is set;
// it marshals to and from JSON as it came.
type ID = rpcwire.ID
