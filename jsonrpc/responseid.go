package jsonrpc

// responseID reads the id of a frame that Decode refused but that looks
// like a response: a whole object with an id we could have sent (a
// number) and no method. It walks the top level without a depth limit
// (PeekResponseID's jsonscan.EachFlatMember counts brackets instead of
// recursing), so an answer nested too deep to decode still ends its call
// at once, on every transport.
func responseID(frame []byte) (ID, bool) {
	id, ok := PeekResponseID(frame)
	if _, isInt := id.Int64(); !ok || !isInt {
		return ID{}, false
	}
	return id, true
}
