package webui

import (
	"context"
	"testing"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// answering is a stream that answers each request on the calling
// goroutine, as Streamable HTTP does (rpcwire.Caller).
type answering struct{ jsonrpc.Stream }

func (answering) Call(_ context.Context, id jsonrpc.ID, _ string, _ []byte) ([]byte, error) {
	raw, _ := id.MarshalJSON()
	return []byte(`{"jsonrpc":"2.0","id":` + string(raw) + `,"result":{}}`), nil
}

// The page's trace keeps a Caller's direct path, and sees the request and
// its answer there; a plain stream's request goes through Write.
func TestTraceKeepsTheDirectPath(t *testing.T) {
	a, b := transport.Pipe()
	defer a.Close()
	defer b.Close()
	var tr Trace
	traced, ok := tr.Wrap("s", answering{a}).(rpcwire.Caller)
	if !ok {
		t.Fatal("the traced stream hides Call")
	}
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	answer, err := traced.Call(context.Background(), rpcwire.Int64ID(1), "ping", req)
	if err != nil || string(answer) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Fatalf("Call = %s, %v", answer, err)
	}
	got := tr.Since(0, "s")
	if len(got) != 2 || !got[0].Out || got[0].Text != string(req) || got[1].Out || got[1].Text != string(answer) {
		t.Errorf("trace = %+v", got)
	}

	plain := tr.Wrap("p", a).(rpcwire.Caller)
	go b.Read() // the pipe's far end takes the request
	if answer, err := plain.Call(context.Background(), rpcwire.Int64ID(2), "ping", req); answer != nil || err != nil {
		t.Errorf("a plain stream's Call = %s, %v; want the request written, the answer left to Read", answer, err)
	}
	if got := tr.Since(2, "p"); len(got) != 1 || !got[0].Out {
		t.Errorf("plain stream's trace = %+v", got)
	}
}
