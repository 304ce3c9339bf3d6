package rpcwire

import (
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/jsonscan"
)

// Members walks the top level of the JSON object obj without decoding it:
// fn gets each member's key as written (quotes and escapes included, so
// `"name"`) and the span obj[start:end] of its value, in order, and stops
// the walk by returning false. It is the scanner the Conn splits frames
// with, for protocol layers that read or splice a few members of a large
// object (a result's resultType, a params object's _meta) without paying
// for a full decode. It returns an error if obj is not one well-formed
// object, as far as the walk went.
func Members(obj []byte, fn func(key []byte, start, end int) bool) error {
	i := jsonscan.SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errors.New("jsonrpc: not a JSON object")
	}
	stop := errors.New("stop")
	end, err := jsonscan.EachMember(obj, i, 1, func(key, value []byte) error {
		start := cap(obj) - cap(value) // value is a subslice of obj
		if !fn(key, start, start+len(value)) {
			return stop
		}
		return nil
	})
	switch {
	case err == stop:
		return nil
	case err != nil:
		return fmt.Errorf("jsonrpc: %w", err)
	case jsonscan.SkipSpace(obj, end) != len(obj):
		return errors.New("jsonrpc: data after the JSON object")
	}
	return nil
}

// PeekResponseID returns the id of frame if frame looks like a response:
// a whole object with an "id" member and no "method". It reads only the
// top level and checks nothing below it, so it is cheap; a transport uses
// it to tell the response to a request from the messages that come ahead
// of it on the same answer, and the Conn still decodes the frame whole.
func PeekResponseID(frame []byte) (ID, bool) {
	var id ID
	found, method := false, false
	whole := jsonscan.EachFlatMember(frame, func(key, value []byte) bool {
		switch string(key) {
		case `"method"`:
			method = true
			return false
		case `"id"`:
			v, err := parseID(value)
			if err == nil && v.IsValid() {
				id, found = v, true
			}
		}
		return true
	})
	if !whole || !found || method {
		return ID{}, false
	}
	return id, true
}
