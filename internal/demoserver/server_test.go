package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

func TestInitializeNegotiatesVersion(t *testing.T) {
	for _, tc := range []struct{ asked, want string }{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", LatestVersion},
		{"1999-01-01", LatestVersion},
		{"", LatestVersion},
	} {
		t.Run(tc.asked, func(t *testing.T) {
			c := start(t, nil, nil)
			if got := c.initialize(tc.asked, `{}`).ProtocolVersion; got != tc.want {
				t.Errorf("protocolVersion = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestInitializeResult(t *testing.T) {
	c := start(t, &Options{Instructions: "Use the echo tool."}, nil)
	got := c.initialize(LatestVersion, `{}`)
	if got.ServerInfo.Name != DefaultName || got.ServerInfo.Version != Version || got.ServerInfo.Title == "" {
		t.Errorf("serverInfo = %+v", got.ServerInfo)
	}
	if got.Instructions != "Use the echo tool." {
		t.Errorf("instructions = %q", got.Instructions)
	}
	caps := map[string]string{}
	for k, v := range got.Capabilities {
		caps[k] = string(v)
	}
	want := map[string]string{
		"tools":       `{"listChanged":true}`,
		"prompts":     `{"listChanged":true}`,
		"resources":   `{"listChanged":true,"subscribe":true}`,
		"logging":     `{}`,
		"completions": `{}`,
		"extensions":  `{"io.modelcontextprotocol/skills":{}}`,
		"tasks":       `{"cancel":{},"list":{},"requests":{"tools":{"call":{}}}}`,
	}
	if d := cmp.Diff(want, caps); d != "" {
		t.Errorf("capabilities (-want +got):\n%s", d)
	}
}

func TestServerName(t *testing.T) {
	c := start(t, &Options{Name: "second"}, nil)
	if got := c.initialize(LatestVersion, `{}`).ServerInfo.Name; got != "second" {
		t.Errorf("serverInfo.name = %q, want %q", got, "second")
	}
}

func TestRequestsBeforeInitializeAreRefused(t *testing.T) {
	c := start(t, nil, nil)
	err := c.call("tools/list", nil, nil)
	wantCode(t, err, jsonrpc.CodeInvalidRequest, "not initialized")
	if err := c.call("ping", nil, nil); err != nil {
		t.Errorf("ping before initialize: %v", err)
	}
	c.initialize(LatestVersion, `{}`)
	if err := c.call("tools/list", nil, nil); err != nil {
		t.Errorf("tools/list after initialize: %v", err)
	}
}

func TestInitializeTwiceIsRefused(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	err := c.call("initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`), nil)
	wantCode(t, err, jsonrpc.CodeInvalidRequest, "already initialized")
}

func TestPing(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	var res json.RawMessage
	if err := c.call("ping", nil, &res); err != nil || string(res) != "{}" {
		t.Fatalf("ping = %s, %v; want {}", res, err)
	}
}

func TestUnknownMethod(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	err := c.call("tools/frobnicate", nil, nil)
	if !errors.Is(err, jsonrpc.ErrMethodNotFound) {
		t.Fatalf("err = %v, want method not found", err)
	}
	wantCode(t, err, jsonrpc.CodeMethodNotFound, "tools/frobnicate")
}

func TestInvalidParams(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, tc := range []struct{ method, params, want string }{
		{"tools/call", `{"name":5}`, "tools/call"},
		{"tools/call", `{}`, "missing tool name"},
		{"logging/setLevel", `{"level":"loud"}`, `"loud"`},
		{"resources/read", `{"uri":[]}`, "resources/read"},
	} {
		err := c.call(tc.method, json.RawMessage(tc.params), nil)
		wantCode(t, err, jsonrpc.CodeInvalidParams, tc.want)
	}
}

func TestServeReturnsNilOnEOF(t *testing.T) {
	checkGoroutines(t)
	a, b := transport.Pipe()
	served := make(chan error, 1)
	go func() { served <- New(nil).Serve(context.Background(), b) }()
	a.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after EOF")
	}
}

func TestServeReportsBrokenStream(t *testing.T) {
	checkGoroutines(t)
	broken := errors.New("cable cut")
	err := New(nil).Serve(context.Background(), &failingStream{err: broken})
	if !errors.Is(err, broken) {
		t.Fatalf("Serve = %v, want it to wrap %v", err, broken)
	}
}

type failingStream struct{ err error }

func (s *failingStream) Read() ([]byte, error)               { return nil, s.err }
func (s *failingStream) Write(context.Context, []byte) error { return s.err }
func (s *failingStream) Close() error                        { return nil }

func TestSessionsAreIndependent(t *testing.T) {
	checkGoroutines(t)
	srv := New(nil)
	conns := make([]*jsonrpc.Conn, 2)
	for i := range conns {
		a, b := transport.Pipe()
		served := make(chan error, 1)
		go func() { served <- srv.Serve(context.Background(), b) }()
		conns[i] = jsonrpc.NewConn(a, nil)
		t.Cleanup(func() {
			conns[i].Close()
			if err := <-served; err != nil {
				t.Errorf("Serve = %v", err)
			}
		})
		if err := conns[i].Call(context.Background(), "initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{}}`), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := conns[0].Call(context.Background(), "tools/call", json.RawMessage(`{"name":"change"}`), nil); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{14, 13} {
		var res struct{ Tools []json.RawMessage }
		if err := conns[i].Call(context.Background(), "tools/list", nil, &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Tools) != want {
			t.Errorf("session %d lists %d tools, want %d", i, len(res.Tools), want)
		}
	}
}
