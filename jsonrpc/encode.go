package jsonrpc

import (
	"bytes"
	"encoding/json"
	"sync"
)

// bufferPool recycles frame buffers: a Stream must not keep a frame after
// Write returns, so the buffer is free again as soon as it does.
var bufferPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func getBuffer() *[]byte { b := bufferPool.Get().(*[]byte); *b = (*b)[:0]; return b }

func putBuffer(b *[]byte) {
	if cap(*b) > 1<<20 { // let very large frames go back to the GC
		return
	}
	bufferPool.Put(b)
}

// appendRequestParams appends a request whose params are any Go value,
// marshalling them straight into b.
func appendRequestParams(b []byte, id ID, method string, params any) ([]byte, error) {
	raw, isRaw := rawParams(params)
	if isRaw || params == nil {
		return AppendRequest(b, id, method, raw), nil
	}
	b = AppendRequest(b, id, method, json.RawMessage("null"))
	b = b[:len(b)-len("null}")]
	w := bytes.NewBuffer(b)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(params); err != nil {
		return b, err
	}
	b = w.Bytes()
	b[len(b)-1] = '}' // replace the newline Encode writes
	return b, nil
}

// rawParams reports whether params are already encoded.
func rawParams(params any) (json.RawMessage, bool) {
	switch p := params.(type) {
	case json.RawMessage:
		return p, true
	case []byte:
		return p, true
	}
	return nil, false
}

// marshalParams encodes a value for the wire without HTML escaping.
func marshalParams(v any) (json.RawMessage, error) {
	if raw, ok := rawParams(v); ok {
		return raw, nil
	}
	if v == nil {
		return nil, nil
	}
	var w bytes.Buffer
	enc := json.NewEncoder(&w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(w.Bytes(), []byte{'\n'}), nil
}
