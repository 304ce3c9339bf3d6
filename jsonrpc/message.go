package jsonrpc

import "encoding/json"

// A Request is what a Handler receives: a request or, with a zero ID, a
// notification.
type Request struct {
	ID     ID
	Method string
	Params json.RawMessage
}
