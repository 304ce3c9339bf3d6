package jsonrpc

import (
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// This file is how a response other than a result read by the read loop
// ends its call: the direct answer a Caller stream hands back from Call,
// checked and decoded on the calling goroutine; a response frame that
// cannot be decoded but names its call; and a failure of one call that
// the stream reports beside the frames (lost, or unusable).

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

// responseID reads the id of a frame that Decode refused but that looks
// like a response: a whole object with an id we could have sent (a
// number) and no method. It walks the top level without a depth limit
// (PeekResponseID's jsonscan.EachFlatMember counts brackets instead of
// recursing), so an answer nested too deep to decode still ends its call
// at once, on every transport.
func responseID(frame []byte) (ID, bool) {
	id, ok := rpcwire.PeekResponseID(frame)
	if _, isInt := id.Int64(); !ok || !isInt {
		return ID{}, false
	}
	return id, true
}

// decodeOrFail decodes a message, or reports why it cannot and returns
// nil. A response it cannot read still ends its call at once.
func (c *Conn) decodeOrFail(frame []byte) *rpcwire.Message {
	m, err := rpcwire.Decode(frame)
	if err == nil {
		return m
	}
	if id, ok := responseID(frame); ok {
		c.log.Warn("jsonrpc: undecodable response", "id", id, "error", err, "frame", preview(frame))
		c.deliver(id, reply{err: &rpcwire.BadResponseError{ID: id, Reason: err.Error()}})
		return nil
	}
	c.log.Warn("jsonrpc: dropping frame", "error", err, "frame", preview(frame))
	return nil
}

// callFailure finds, in an error a Stream's Read returned, a failure of
// one call that leaves the stream running.
func callFailure(err error) (ID, error, bool) {
	var lost *rpcwire.ResponseLostError
	if errtype.As(err, &lost) {
		return lost.ID, lost, true
	}
	var bad *rpcwire.BadResponseError
	if errtype.As(err, &bad) {
		return bad.ID, bad, true
	}
	return ID{}, nil, false
}
