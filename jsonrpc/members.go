package jsonrpc

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
