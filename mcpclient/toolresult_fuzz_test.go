package mcpclient

import (
	"testing"
)

// FuzzDecodeToolResult feeds what a server may send as a tools/call
// result to the decoding CallTool and package mcpclient/task share, and
// to the words that describe a result that is not one: neither panics,
// and a decoded result always has its content list.
func FuzzDecodeToolResult(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"hi"}],"isError":true}`,
		`{"content":[]}`, `{"task":{"taskId":"x","status":"working"}}`,
		`{"content":null,"structuredContent":{"a":1}}`, `{"content":[{"type":"nope","x":[1]}]}`,
		`{}`, `[]`, `null`, `"x"`, `{"content":[null]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		describeResult(raw)
		res, err := DecodeToolResult(raw)
		if err == nil && res.Content == nil {
			t.Fatalf("decoded %q without a content list", raw)
		}
	})
}
