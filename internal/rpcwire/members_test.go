package rpcwire

import (
	"strings"
	"testing"
)

func TestPeekResponseID(t *testing.T) {
	for _, tc := range []struct {
		frame string
		id    ID
		ok    bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, Int64ID(7), true},
		{` {"id":"a","error":{"code":1,"message":"x"},"jsonrpc":"2.0"} `, StringID("a"), true},
		{`{"jsonrpc":"2.0","id":7,"result":{"deep":[[[` + strings.Repeat("[", 20000) + strings.Repeat("]", 20003) + `}}`, Int64ID(7), true},
		{`{"jsonrpc":"2.0","id":7,"method":"x"}`, ID{}, false},
		{`{"jsonrpc":"2.0","method":"x"}`, ID{}, false},
		{`{"jsonrpc":"2.0","id":null,"error":{}}`, ID{}, false},
		{`{"jsonrpc":"2.0","id":7,"result":{}`, ID{}, false},
		{`[{"jsonrpc":"2.0","id":7,"result":{}}]`, ID{}, false},
		{`{"jsonrpc":"2.0","id":7,"result":{}} x`, ID{}, false},
	} {
		id, ok := PeekResponseID([]byte(tc.frame))
		if id != tc.id || ok != tc.ok {
			t.Errorf("PeekResponseID(%.40q) = %v, %v; want %v, %v", tc.frame, id, ok, tc.id, tc.ok)
		}
	}
}

// FuzzPeekResponseID checks PeekResponseID against Decode: an id it
// reads from a frame Decode takes is that response's id, and it never
// panics on anything.
func FuzzPeekResponseID(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"a"}`,
		`{"jsonrpc":"2.0","id":1.50,"result":[{"a":"]}"}]}`,
		`{"id":1,"id":2,"jsonrpc":"2.0","result":null}`,
		`{"a":`, `[]`, `{"id":"\u0031"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		id, ok := PeekResponseID(frame)
		if !ok {
			if id.IsValid() {
				t.Fatalf("no response, yet id %v", id)
			}
			return
		}
		m, err := Decode(frame)
		if err != nil {
			return // malformed below the top level: the Conn fails the call
		}
		if !m.IsResponse() {
			t.Fatalf("PeekResponseID took a %q message for a response", m.Method)
		}
		if m.ID != id && !strings.Contains(string(frame), `"\`) {
			// Decode reads escaped keys and the last of repeated ones.
			if strings.Count(string(frame), `"id"`) == 1 {
				t.Fatalf("PeekResponseID read id %v, Decode %v", id, m.ID)
			}
		}
	})
}
