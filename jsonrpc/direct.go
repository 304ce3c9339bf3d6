package jsonrpc

import (
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// This file is the direct path of a response: the answer a Caller stream
// hands back from Call, checked and decoded on the calling goroutine.

// direct completes a call with the answer its Caller returned. The answer
// was sent for this request, so anything else in its place (not JSON-RPC,
// not a response, another request's response) is a bad response that ends
// the call at once.
func (c *Conn) direct(id ID, method string, answer []byte) (json.RawMessage, error) {
	m, err := rpcwire.Decode(answer)
	reason := ""
	switch {
	case err != nil:
		reason = fmt.Sprintf("the answer is no JSON-RPC message: %v", err)
	case !m.IsResponse():
		reason = fmt.Sprintf("the answer is a %s message, not a response", m.Method)
	case m.ID != id:
		reason = fmt.Sprintf("the answer is the response to another request (id %s)", m.ID)
	default:
		return response(method, reply{m: m})
	}
	c.log.Warn("jsonrpc: unusable answer", "id", id, "reason", reason, "frame", preview(answer))
	return nil, fmt.Errorf("calling %s: %w", method, &rpcwire.BadResponseError{ID: id, Reason: reason})
}
