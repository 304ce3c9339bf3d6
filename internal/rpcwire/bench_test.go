package rpcwire

import (
	"encoding/json"
	"strings"
	"testing"
)

// bigResponse is a response carrying 1 MiB of text in lines, the shape of
// a large tool result.
func bigResponse() []byte {
	var text strings.Builder
	for text.Len() < 1<<20 {
		text.WriteString("the quick brown fox jumps over the lazy dog, again and again\n")
	}
	quoted, _ := json.Marshal(text.String()[:1<<20])
	return []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":` + string(quoted) + `}]}}`)
}

// BenchmarkDecode1MiB splits a 1 MiB response into its envelope, leaving
// the result undecoded.
func BenchmarkDecode1MiB(b *testing.B) {
	frame := bigResponse()
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := Decode(frame)
		if err != nil || len(m.Result) == 0 {
			b.Fatal(m, err)
		}
	}
}

// BenchmarkDecode1MiBFloor does the same with encoding/json: the envelope
// into a struct, the result as raw bytes.
func BenchmarkDecode1MiBFloor(b *testing.B) {
	frame := bigResponse()
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
			Error   *Error          `json:"error"`
		}
		if err := json.Unmarshal(frame, &m); err != nil || len(m.Result) == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSmall splits a typical small response.
func BenchmarkDecodeSmall(b *testing.B) {
	frame := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"hello, benchmark"}]}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(frame); err != nil {
			b.Fatal(err)
		}
	}
}
