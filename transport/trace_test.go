package transport

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestTrace(t *testing.T) {
	checkLeaks(t)
	a, b := Pipe()
	var out bytes.Buffer
	traced := Trace(a, &out, "srv")
	ctx := context.Background()

	if err := traced.Write(ctx, []byte(`{"id":1,"method":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	if frame, _ := b.Read(); string(frame) != `{"id":1,"method":"ping"}` {
		t.Errorf("the peer read %s", frame)
	}
	b.Write(ctx, []byte("{\n  \"id\": 1,\n  \"result\": {}\n}"))
	if frame, err := traced.Read(); err != nil || len(frame) == 0 {
		t.Errorf("Read: got %s, %v", frame, err)
	}
	traced.Close()
	if err := traced.Write(ctx, []byte(`{"id":2}`)); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Write after Close: got %v, want ErrClosed", err)
	}
	if _, err := traced.Read(); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Read after Close: got %v, want ErrClosed", err)
	}
	b.Close()

	want := `srv -> {"id":1,"method":"ping"}
srv <- {   "id": 1,   "result": {} }
srv -> {"id":2}
srv -> (not sent: writing to pipe: jsonrpc: connection closed)
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
}

func TestTraceWithoutLabel(t *testing.T) {
	a, b := Pipe()
	defer a.Close()
	defer b.Close()
	var out bytes.Buffer
	Trace(a, &out, "").Write(context.Background(), []byte(`{}`))
	if got, want := out.String(), "-> {}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
