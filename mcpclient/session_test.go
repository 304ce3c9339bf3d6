package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestHandshake(t *testing.T) {
	f := fakemcp.New(t)
	s := connect(t, f, &Options{
		ClientInfo:     Implementation{Name: "host", Version: "9"},
		Sampling:       func(context.Context, *CreateMessageParams) (*CreateMessageResult, error) { return nil, nil },
		SamplingTools:  true,
		Elicitation:    func(context.Context, *ElicitParams) (*ElicitResult, error) { return nil, nil },
		ElicitationURL: true,
		Roots:          func(context.Context) ([]Root, error) { return nil, nil },
	})
	f.WaitNote("notifications/initialized")
	var p map[string]any
	json.Unmarshal(f.Request("initialize").Params, &p)
	want := map[string]any{
		"protocolVersion": "2025-11-25",
		"clientInfo":      map[string]any{"name": "host", "version": "9"},
		"capabilities": map[string]any{
			"sampling":    map[string]any{"tools": map[string]any{}},
			"elicitation": map[string]any{"form": map[string]any{}, "url": map[string]any{}},
			"roots":       map[string]any{"listChanged": true},
		},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("initialize params (-want +got):\n%s", diff)
	}
	if s.ProtocolVersion() != "2025-11-25" || s.Era() != EraHandshake || s.ServerInfo().Name != "fake" ||
		s.Instructions() != "be nice" || s.Capabilities().Tools == nil || !s.Capabilities().Tools.ListChanged {
		t.Errorf("session state: %v %v %+v %q %+v", s.ProtocolVersion(), s.Era(), s.ServerInfo(), s.Instructions(), s.Capabilities())
	}
}

func TestNoCapabilitiesWhenNothingWired(t *testing.T) {
	f := fakemcp.New(t)
	connect(t, f, nil)
	var p struct {
		Capabilities map[string]any `json:"capabilities"`
		ClientInfo   Implementation `json:"clientInfo"`
	}
	json.Unmarshal(f.Request("initialize").Params, &p)
	if len(p.Capabilities) != 0 || p.ClientInfo.Name != "plainmcp" {
		t.Errorf("capabilities %v, clientInfo %+v", p.Capabilities, p.ClientInfo)
	}
}

func TestVersionNegotiation(t *testing.T) {
	for _, tc := range []struct {
		name, pin, answer string
		ok                bool
	}{
		{"latest", "", "2025-11-25", true},
		{"older 2025-06-18", "", "2025-06-18", true},
		{"older 2025-03-26", "", "2025-03-26", true},
		{"oldest", "", "2024-11-05", true},
		{"unknown old", "", "2023-01-01", false},
		{"unknown new", "", "2099-01-01", false},
		{"empty", "", "", false},
		{"pinned ok", "2025-03-26", "2025-03-26", true},
		{"pinned but other", "2025-03-26", "2025-06-18", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkGoroutines(t)
			f := fakemcp.New(t)
			f.Version = tc.answer
			if tc.answer == "" {
				f.Result("initialize", `{"capabilities":{},"serverInfo":{"name":"x","version":"1"}}`)
			}
			a := f.Start(t)
			s, err := Connect(ctx5s(t), a, &Options{ProtocolVersion: tc.pin})
			if tc.ok {
				if err != nil {
					t.Fatalf("Connect: %v", err)
				}
				defer s.Close()
				if s.ProtocolVersion() != tc.answer {
					t.Errorf("version %q, want %q", s.ProtocolVersion(), tc.answer)
				}
				return
			}
			if !errors.Is(err, ErrUnsupportedVersion) {
				t.Fatalf("err = %v, want ErrUnsupportedVersion", err)
			}
			if !strings.Contains(err.Error(), `"`+tc.answer+`"`) || !strings.Contains(err.Error(), "asked for") {
				t.Errorf("error %q does not name both versions", err)
			}
			select { // the session closed its stream
			case <-f.Conn.Done():
			case <-time.After(5 * time.Second):
				t.Error("stream not closed after a failed handshake")
			}
		})
	}
	if _, err := Connect(context.Background(), &closedStream{}, &Options{ProtocolVersion: "1999-01-01"}); !errors.Is(err, ErrUnsupportedVersion) {
		t.Errorf("pinning an unknown version: %v", err)
	}
}

type closedStream struct{}

func (closedStream) Read() ([]byte, error)               { return nil, jsonrpc.ErrClosed }
func (closedStream) Write(context.Context, []byte) error { return jsonrpc.ErrClosed }
func (closedStream) Close() error                        { return nil }

func TestPingBothWays(t *testing.T) {
	f := fakemcp.New(t)
	s := connect(t, f, nil)
	if err := s.Ping(ctx5s(t)); err == nil {
		t.Error("fake server does not implement ping; want an error")
	}
	f.Result("ping", `{}`)
	if err := s.Ping(ctx5s(t)); err != nil {
		t.Errorf("Ping: %v", err)
	}
	var res json.RawMessage
	if err := f.Conn.Call(ctx5s(t), "ping", nil, &res); err != nil || string(res) != "{}" {
		t.Errorf("server ping: %s %v", res, err)
	}
}

func TestServerRequests(t *testing.T) {
	f := fakemcp.New(t)
	var gotSampling *CreateMessageParams
	s := connect(t, f, &Options{
		Sampling: func(ctx context.Context, p *CreateMessageParams) (*CreateMessageResult, error) {
			gotSampling = p
			return &CreateMessageResult{Role: "assistant", Content: ContentList{{Type: "text", Text: "hi"}}, Model: "m1"}, nil
		},
		Elicitation: func(ctx context.Context, p *ElicitParams) (*ElicitResult, error) {
			if p.Message == "decline me" {
				return &ElicitResult{Action: "decline"}, nil
			}
			return &ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		Roots: func(context.Context) ([]Root, error) { return []Root{{URI: "file:///src", Name: "src"}}, nil },
	})
	_ = s
	for _, tc := range []struct{ method, params, want string }{
		{"sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"q"}}],"maxTokens":5}`,
			`{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m1"}`},
		{"elicitation/create", `{"message":"who?","requestedSchema":{"type":"object"}}`, `{"action":"accept","content":{"name":"Ada"}}`},
		{"elicitation/create", `{"message":"decline me","requestedSchema":{"type":"object"}}`, `{"action":"decline"}`},
		{"roots/list", `{}`, `{"roots":[{"uri":"file:///src","name":"src"}]}`},
		{"ping", ``, `{}`},
	} {
		var raw json.RawMessage
		var params any
		if tc.params != "" {
			params = json.RawMessage(tc.params)
		}
		if err := f.Conn.Call(ctx5s(t), tc.method, params, &raw); err != nil {
			t.Fatalf("%s: %v", tc.method, err)
		}
		if string(raw) != tc.want {
			t.Errorf("%s answered\n %s\nwant\n %s", tc.method, raw, tc.want)
		}
	}
	if gotSampling.MaxTokens != 5 || gotSampling.Messages[0].Content[0].Text != "q" {
		t.Errorf("sampling params %+v", gotSampling)
	}
	err := f.Conn.Call(ctx5s(t), "elicitation/create", json.RawMessage(`{"message":3}`), nil)
	if !errors.Is(err, jsonrpc.ErrInvalidParams) {
		t.Errorf("bad params: %v", err)
	}
	err = f.Conn.Call(ctx5s(t), "unknown/thing", nil, nil)
	if !errors.Is(err, jsonrpc.ErrMethodNotFound) {
		t.Errorf("unknown server request: %v", err)
	}
}

func TestUnwiredHandlersAnswerMethodNotFound(t *testing.T) {
	f := fakemcp.New(t)
	connect(t, f, nil)
	for _, m := range []string{"sampling/createMessage", "elicitation/create", "roots/list"} {
		if err := f.Conn.Call(ctx5s(t), m, json.RawMessage(`{}`), nil); !errors.Is(err, jsonrpc.ErrMethodNotFound) {
			t.Errorf("%s: %v", m, err)
		}
	}
}

func TestHandlerErrorReachesServer(t *testing.T) {
	f := fakemcp.New(t)
	connect(t, f, &Options{Sampling: func(context.Context, *CreateMessageParams) (*CreateMessageResult, error) {
		return nil, jsonrpc.NewError(CodeUserRejected, "user rejected sampling request")
	}})
	err := f.Conn.Call(ctx5s(t), "sampling/createMessage", json.RawMessage(`{"messages":[],"maxTokens":1}`), nil)
	var e *jsonrpc.Error
	if !errors.As(err, &e) || e.Code != -1 {
		t.Errorf("err = %v", err)
	}
}

func TestNotificationsReachCallbacks(t *testing.T) {
	f := fakemcp.New(t)
	var mu sync.Mutex
	var got []string
	add := func(s string) { mu.Lock(); got = append(got, s); mu.Unlock() }
	all := make(chan struct{})
	connect(t, f, &Options{
		OnLog:             func(m LogMessage) { add("log " + m.Level + " " + m.Logger + " " + string(m.Data)) },
		OnListChanged:     func(kind string) { add("changed " + kind) },
		OnResourceUpdated: func(uri string) { add("updated " + uri) },
		OnNotification: func(method string, params json.RawMessage) {
			add("other " + method)
			if method == "last" {
				close(all)
			}
		},
	})
	ctx := ctx5s(t)
	f.Conn.Notify(ctx, "notifications/message", json.RawMessage(`{"level":"info","logger":"db","data":{"x":1}}`))
	for _, k := range []string{"tools", "prompts", "resources"} {
		f.Conn.Notify(ctx, "notifications/"+k+"/list_changed", nil)
	}
	f.Conn.Notify(ctx, "notifications/resources/updated", json.RawMessage(`{"uri":"file:///a"}`))
	f.Conn.Notify(ctx, "notifications/elicitation/complete", json.RawMessage(`{"elicitationId":"e"}`))
	f.Conn.Notify(ctx, "last", nil)
	select {
	case <-all:
	case <-time.After(5 * time.Second):
		t.Fatal("notifications not delivered")
	}
	want := []string{`log info db {"x":1}`, "changed tools", "changed prompts", "changed resources",
		"updated file:///a", "other notifications/elicitation/complete", "other last"}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("callbacks (-want +got):\n%s", diff)
	}
}

func TestServerCancelsSampling(t *testing.T) {
	f := fakemcp.New(t)
	started := make(chan struct{})
	stopped := make(chan error, 1)
	connect(t, f, &Options{Sampling: func(ctx context.Context, _ *CreateMessageParams) (*CreateMessageResult, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return nil, ctx.Err()
	}})
	callErr := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		callErr <- f.Conn.Call(ctx, "sampling/createMessage", json.RawMessage(`{"messages":[],"maxTokens":1}`), nil)
	}()
	<-started
	cancel() // the fake server's conn has no OnAbandon; send the notice by hand
	f.Conn.Notify(context.Background(), "notifications/cancelled", json.RawMessage(`{"requestId":1,"reason":"test"}`))
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("handler ctx ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("notifications/cancelled did not cancel the sampling handler")
	}
	<-callErr
}

func TestCloseIsIdempotentAndFailsCalls(t *testing.T) {
	f := fakemcp.New(t)
	block := make(chan struct{})
	defer close(block)
	started := make(chan struct{})
	f.Handle("tools/call", func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
		close(started)
		select {
		case <-block:
		case <-ctx.Done():
		}
		return nil, nil
	})
	s := connect(t, f, nil)
	errs := make(chan error, 1)
	go func() { _, err := s.CallTool(context.Background(), "x", nil); errs <- err }()
	<-started // the call is in flight
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); s.Close() }()
	}
	wg.Wait()
	if err := <-errs; !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("in-flight call: %v", err)
	}
	if _, err := s.CallTool(context.Background(), "x", nil); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("call after Close: %v", err)
	}
	select {
	case <-s.Done():
	default:
		t.Error("Done not closed")
	}
}

func TestServerGoneFailsCallsAtOnce(t *testing.T) {
	f := fakemcp.New(t)
	started := make(chan struct{})
	f.Handle("tools/call", func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, nil
	})
	s := connect(t, f, nil)
	errs := make(chan error, 1)
	go func() { _, err := s.CallTool(context.Background(), "x", nil); errs <- err }()
	<-started // the call is in flight
	f.Conn.Close()
	select {
	case err := <-errs:
		if !errors.Is(err, jsonrpc.ErrDisconnected) {
			t.Errorf("err = %v, want ErrDisconnected", err)
		}
	case <-time.After(time.Second):
		t.Fatal("call not failed within a second of the server going away")
	}
	if !errors.Is(s.Err(), jsonrpc.ErrDisconnected) {
		t.Errorf("Err() = %v", s.Err())
	}
}

func TestElicitationDefaultsFilledIn(t *testing.T) {
	f := fakemcp.New(t)
	connect(t, f, &Options{Elicitation: func(ctx context.Context, p *ElicitParams) (*ElicitResult, error) {
		if p.Message == "partial" {
			return &ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "verified": false}}, nil
		}
		if p.Message == "decline" {
			return &ElicitResult{Action: "decline"}, nil
		}
		return &ElicitResult{Action: "accept"}, nil
	}})
	schema := `{"type":"object","properties":{
		"name":{"type":"string","default":"John Doe"},
		"age":{"type":"integer","default":30},
		"score":{"type":"number","default":95.5},
		"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},
		"verified":{"type":"boolean","default":true},
		"nickname":{"type":"string"}}}`
	for _, tc := range []struct{ message, want string }{
		{"empty", `{"action":"accept","content":{"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}}`},
		{"partial", `{"action":"accept","content":{"age":30,"name":"Ada","score":95.5,"status":"active","verified":false}}`},
		{"decline", `{"action":"decline"}`},
	} {
		var raw json.RawMessage
		err := f.Conn.Call(ctx5s(t), "elicitation/create", map[string]any{"message": tc.message, "requestedSchema": json.RawMessage(schema)}, &raw)
		if err != nil || string(raw) != tc.want {
			t.Errorf("%s: got %s (%v)\nwant %s", tc.message, raw, err, tc.want)
		}
	}
}

// TestLifecycleRequestsAreNeverCancelled: giving up on initialize or on
// the server/discover probe tells the server nothing (the spec forbids
// cancelling initialize, and the probe may be a legacy server's first
// message); giving up on any other request sends notifications/cancelled.
// An abandoned initialize otherwise fails Connect, whose conn then closes
// before a notice could go, so the rule is checked here on a live session.
func TestLifecycleRequestsAreNeverCancelled(t *testing.T) {
	f := fakemcp.New(t)
	s := fakemcp.Connect(t, f, Connect, &Options{})
	for i, method := range []string{"initialize", "server/discover", "tools/call"} {
		s.abandoned(rpcwire.Int64ID(int64(100+i)), method)
	}
	s.background.Wait()
	if err := s.conn.Notify(ctx5s(t), "test/marker", nil); err != nil {
		t.Fatal(err)
	}
	f.WaitNote("test/marker") // notifications arrive in order: every notice is in
	notes := f.Notes("notifications/cancelled")
	if len(notes) != 1 || !strings.Contains(string(notes[0].Params), `"requestId":102`) {
		t.Errorf("cancellation notices: %d, want one, for tools/call (id 102)", len(notes))
	}
}
