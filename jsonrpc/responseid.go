package jsonrpc

import "github.com/plainmcp/plainmcp/internal/rpcwire"

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
