package rpcwire_test

import (
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// Decode splits a frame into its envelope; the result stays raw until the
// caller decodes it into its own type.
func ExampleDecode() {
	m, err := rpcwire.Decode([]byte(`{"jsonrpc":"2.0","id":"req-7","result":{"tools":[]}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.IsResponse(), m.ID, string(m.Result))

	_, err = rpcwire.Decode([]byte(`{"jsonrpc":"1.0","id":1,"result":{}}`))
	fmt.Println(err)
	// Output:
	// true "req-7" {"tools":[]}
	// jsonrpc: "jsonrpc" must be "2.0", got "1.0"
}

// The id of a request is echoed exactly as the peer wrote it.
func ExampleAppendResult() {
	m, _ := rpcwire.Decode([]byte(`{"jsonrpc":"2.0","id":1.50,"method":"ping"}`))
	fmt.Println(string(rpcwire.AppendResult(nil, m.ID, json.RawMessage(`{}`))))
	// Output:
	// {"jsonrpc":"2.0","id":1.50,"result":{}}
}
