package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// A tools/call result that came another way — sent again through
// Session.Call with Options.ManualInput, or a task's outcome — decodes as
// CallTool decodes it.
func ExampleDecodeToolResult() {
	raw := json.RawMessage(`{"content":[{"type":"text","text":"42"}],"isError":false}`)
	res, err := mcpclient.DecodeToolResult(raw)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text(), res.IsError)
	_, err = mcpclient.DecodeToolResult(json.RawMessage(`{"task":{"taskId":"t1","status":"working"}}`))
	fmt.Println(err)
	// Output:
	// 42 false
	// mcpclient: malformed result: tools/call answered without content: a task (CreateTaskResult), which the call did not ask for; the task may still run at the server
}

// A caller that fulfils input requests itself (Options.ManualInput, or an
// extension's own) answers each through the host's handler for it.
func ExampleSession_AnswerInput() {
	s, done := startDemo(&mcpclient.Options{Roots: func(context.Context) ([]mcpclient.Root, error) {
		return []mcpclient.Root{{URI: "file:///work", Name: "work"}}, nil
	}})
	defer done()
	res, err := s.AnswerInput(context.Background(), "roots/list", nil)
	if err != nil {
		log.Fatal(err)
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	_, err = s.AnswerInput(context.Background(), "sampling/createMessage", json.RawMessage(`{"messages":[]}`))
	fmt.Println(err)
	// Output:
	// {"roots":[{"uri":"file:///work","name":"work"}]}
	// the server asked for sampling/createMessage, but no handler for it is set (and its capability was not declared)
}
