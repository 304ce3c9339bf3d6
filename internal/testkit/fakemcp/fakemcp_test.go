package fakemcp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// A client (a bare jsonrpc.Conn here; plainmcp's tests connect an
// mcpclient.Session) gets the scripted answers and the defaults, and the
// server keeps what it got.
func TestScriptedServer(t *testing.T) {
	leakcheck.Check(t)
	f := New(t)
	f.Result("tools/list", `{"tools":[]}`)
	client := jsonrpc.NewConn(f.Start(t), nil)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	for _, v := range []string{"2025-11-25", "2025-03-26"} {
		var init struct{ ProtocolVersion, Instructions string }
		if err := client.Call(ctx, "initialize", map[string]any{"protocolVersion": v}, &init); err != nil || init.ProtocolVersion != v {
			t.Errorf("initialize asking %s: %+v, %v; want the version echoed", v, init, err)
		}
	}
	f.Version = "2024-11-05"
	var init struct{ ProtocolVersion string }
	if client.Call(ctx, "initialize", map[string]any{"protocolVersion": "2025-11-25"}, &init); init.ProtocolVersion != f.Version {
		t.Errorf("with Version set, initialize answered %q", init.ProtocolVersion)
	}
	var list json.RawMessage
	if err := client.Call(ctx, "tools/list", map[string]any{"cursor": "c"}, &list); err != nil || string(list) != `{"tools":[]}` {
		t.Errorf("tools/list: %s, %v", list, err)
	}
	if err := client.Call(ctx, "prompts/list", nil, nil); !errors.Is(err, jsonrpc.ErrMethodNotFound) {
		t.Errorf("a method with no answer: %v, want method not found", err)
	}
	if n := f.Count("initialize"); n != 3 {
		t.Errorf("Count(initialize) = %d, want 3", n)
	}
	if p := f.ParamsOf("tools/list"); len(p) != 1 || p[0]["cursor"] != "c" {
		t.Errorf("ParamsOf(tools/list) = %v", p)
	}
	if f.Request("prompts/list") == nil || f.Request("resources/list") != nil {
		t.Error("Request does not tell what was asked")
	}

	for _, m := range []string{"a", "b", "a"} {
		client.Notify(ctx, m, map[string]string{"n": m})
	}
	// WaitNote goes past what it returned: the second "a" is the last note.
	if a1, a2 := f.WaitNote("a"), f.WaitNote("a"); a1 == a2 || f.nextNote("a") != nil {
		t.Error("WaitNote returned one note twice")
	}
	if got := f.Notes("a"); len(got) != 2 || len(f.Notes("b")) != 1 {
		t.Errorf("Notes(a) = %d notes, Notes(b) = %d; want 2 and 1", len(got), len(f.Notes("b")))
	}
}

// TestDrain: once the client's end is closed, Drain returns with every
// notification the client sent recorded, so a test can say none other came.
func TestDrain(t *testing.T) {
	leakcheck.Check(t)
	f := New(t)
	client := jsonrpc.NewConn(f.Start(t), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for range 50 {
		if err := client.Notify(ctx, "a", nil); err != nil {
			t.Fatal(err)
		}
	}
	client.Close()
	f.Drain()
	if n := len(f.Notes("a")); n != 50 {
		t.Errorf("after Drain the server has %d of the 50 notifications", n)
	}
}
