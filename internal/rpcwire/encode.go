package rpcwire

import (
	"bytes"
	"encoding/json"
)

// An Appender writes its own JSON encoding. Params that implement it are
// appended straight into the request's frame: a protocol layer that
// splices members into encoded params (MCP's _meta) needs no buffer of its
// own, and a large request is copied once. AppendJSON must append one
// valid JSON value to b and return the extended slice.
type Appender interface {
	AppendJSON(b []byte) []byte
}

// Marshal is json.Marshal as frames are written: without HTML escaping,
// so that a json.RawMessage inside v (a peer's opaque value, a schema)
// goes out byte for byte, where json.Marshal would rewrite <, > and & in
// its strings.
func Marshal(v any) (json.RawMessage, error) {
	var w bytes.Buffer
	enc := json.NewEncoder(&w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(w.Bytes(), []byte{'\n'}), nil
}
