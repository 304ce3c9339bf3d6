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
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

const discoverOK = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},
	"instructions":"modern","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-server","version":"2"}}}`

// modernServer is a fake stateless-era server.
func modernServer(t *testing.T) *fakemcp.Server {
	f := fakemcp.New(t)
	f.Result("server/discover", discoverOK)
	return f
}

func TestEraDetection(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		discover               jsonrpc.Handler // nil: method not found
		opts                   Options
		era                    Era
		err                    error
		discovers, initializes int
	}{
		{name: "modern server", discover: answer(discoverOK), era: EraStateless, discovers: 1},
		{name: "method not found", era: EraHandshake, discovers: 1, initializes: 1},
		{name: "empty result", discover: answer(`{}`), era: EraHandshake, discovers: 1, initializes: 1},
		{name: "result without capabilities", discover: answer(`{"supportedVersions":["2026-07-28"]}`), era: EraHandshake, discovers: 1, initializes: 1},
		{name: "other error", discover: fail(-32000, "Bad Request: no session"), era: EraHandshake, discovers: 1, initializes: 1},
		{name: "invalid request", discover: fail(jsonrpc.CodeInvalidRequest, "Invalid Request"), era: EraHandshake, discovers: 1, initializes: 1},
		{name: "invalid params", discover: fail(jsonrpc.CodeInvalidParams, "Invalid params"), era: EraHandshake, discovers: 1, initializes: 1},
		{name: "silence", discover: hang, opts: Options{DiscoverTimeout: 100 * time.Millisecond}, era: EraHandshake, discovers: 1, initializes: 1},
		{name: "only handshake versions", discover: answer(`{"supportedVersions":["2025-11-25"],"capabilities":{}}`), era: EraHandshake, discovers: 1, initializes: 1},
		{name: "unknown versions", discover: answer(`{"supportedVersions":["2099-01-01"],"capabilities":{}}`), err: ErrUnsupportedVersion, discovers: 1},
		{name: "version error then fine", discover: firstFails(), era: EraStateless, discovers: 2},
		{name: "pinned handshake", opts: Options{Era: EraHandshake}, era: EraHandshake, initializes: 1},
		{name: "pinned handshake version", opts: Options{ProtocolVersion: "2025-06-18"}, era: EraHandshake, initializes: 1},
		{name: "pinned stateless, legacy server", opts: Options{Era: EraStateless}, err: errNotModern, discovers: 1},
		{name: "pinned stateless version", discover: answer(discoverOK), opts: Options{ProtocolVersion: "2026-07-28"}, era: EraStateless, discovers: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkGoroutines(t)
			f := fakemcp.New(t)
			if tc.discover != nil {
				f.Handle("server/discover", tc.discover)
			}
			a := f.Start(t)
			opts := tc.opts
			s, err := Connect(ctx5s(t), a, &opts)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
			} else if err != nil {
				t.Fatal(err)
			} else {
				defer s.Close()
				if s.Era() != tc.era {
					t.Errorf("era %v, want %v", s.Era(), tc.era)
				}
				// Every notice the session sent is in before the check
				// below: its background sends are over, and a marker sent
				// after them has arrived (notifications arrive in order).
				s.background.Wait()
				if err := s.conn.Notify(ctx5s(t), "test/marker", nil); err != nil {
					t.Fatal(err)
				}
				f.WaitNote("test/marker")
			}
			if got := f.Count("server/discover"); got != tc.discovers {
				t.Errorf("%d server/discover requests, want %d", got, tc.discovers)
			}
			if got := f.Count("initialize"); got != tc.initializes {
				t.Errorf("%d initialize requests, want %d", got, tc.initializes)
			}
			if len(f.Notes("notifications/cancelled")) != 0 {
				t.Error("the probe was cancelled: a legacy server must not see notifications before initialize")
			}
		})
	}
}

func answer(result string) jsonrpc.Handler {
	return func(context.Context, *jsonrpc.Request) (any, error) { return json.RawMessage(result), nil }
}

func fail(code jsonrpc.Code, msg string) jsonrpc.Handler {
	return func(context.Context, *jsonrpc.Request) (any, error) { return nil, jsonrpc.NewError(code, "%s", msg) }
}

func hang(ctx context.Context, _ *jsonrpc.Request) (any, error) { <-ctx.Done(); return nil, ctx.Err() }

// firstFails answers the first discover with -32022 (as a server that
// rejects a first request may), then normally.
func firstFails() jsonrpc.Handler {
	var mu sync.Mutex
	n := 0
	return func(context.Context, *jsonrpc.Request) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		if n++; n == 1 {
			return nil, &jsonrpc.Error{Code: codeUnsupportedVersion, Message: "Unsupported protocol version",
				Data: json.RawMessage(`{"supported":["2026-07-28"],"requested":"2026-07-28"}`)}
		}
		return json.RawMessage(discoverOK), nil
	}
}

func TestStatelessSession(t *testing.T) {
	f := modernServer(t)
	f.Result("tools/list", `{"resultType":"complete","tools":[{"name":"a","inputSchema":{}}],"ttlMs":1000,"cacheScope":"public"}`)
	f.Result("tools/call", `{"content":[{"type":"text","text":"no resultType: complete"}]}`)
	s := connect(t, f, &Options{
		ClientInfo: Implementation{Name: "host", Version: "3"},
		Sampling:   func(context.Context, *CreateMessageParams) (*CreateMessageResult, error) { return nil, nil },
		OnLog:      func(LogMessage) {},
	})
	if s.Era() != EraStateless || s.ProtocolVersion() != "2026-07-28" || s.ServerInfo().Name != "modern-server" ||
		s.Instructions() != "modern" || !s.Capabilities().Tools.ListChanged {
		t.Fatalf("session: %v %v %+v %q", s.Era(), s.ProtocolVersion(), s.ServerInfo(), s.Instructions())
	}
	ctx := WithProgress(ctx5s(t), func(Progress) {})
	if _, err := Collect(s.Tools(ctx)); err != nil {
		t.Fatal(err)
	}
	res, err := s.CallTool(ctx5s(t), "a", map[string]int{"x": 1})
	if err != nil || res.Text() != "no resultType: complete" {
		t.Fatalf("CallTool: %+v %v", res, err)
	}
	if err := s.SetLogLevel(ctx5s(t), "debug"); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx5s(t)); err != nil {
		t.Fatal(err)
	}
	if f.Count("initialize")+f.Count("logging/setLevel")+f.Count("ping") != 0 {
		t.Error("a handshake-era method was sent in the stateless era")
	}
	wantMeta := func(level string) map[string]any {
		return map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "host", "version": "3"},
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"sampling": map[string]any{}},
			"io.modelcontextprotocol/logLevel":           level,
		}
	}
	list := f.ParamsOf("tools/list")[0]["_meta"].(map[string]any)
	if list["progressToken"] == nil {
		t.Error("the progress token was lost from _meta")
	}
	delete(list, "progressToken")
	if diff := cmp.Diff(wantMeta("info"), list); diff != "" {
		t.Errorf("tools/list _meta (-want +got):\n%s", diff)
	}
	call := f.ParamsOf("tools/call")[0]
	if diff := cmp.Diff(wantMeta("info"), call["_meta"]); diff != "" || call["name"] != "a" {
		t.Errorf("tools/call params %v (-want +got _meta):\n%s", call, diff)
	}
	discovers := f.ParamsOf("server/discover")
	if diff := cmp.Diff(wantMeta("debug"), discovers[len(discovers)-1]["_meta"]); diff != "" {
		t.Errorf("after SetLogLevel (-want +got):\n%s", diff)
	}
}

func TestInputRequiredRounds(t *testing.T) {
	f := modernServer(t)
	// requestState with characters json.Marshal would escape, and escapes of
	// its own: it must come back byte for byte.
	const state = `"st<a>te&\u00e9\/x"`
	var mu sync.Mutex
	var rounds []*jsonrpc.Request
	f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		mu.Lock()
		rounds = append(rounds, r)
		n := len(rounds)
		mu.Unlock()
		switch n {
		case 1:
			return json.RawMessage(`{"resultType":"input_required","requestState":` + state + `,"inputRequests":{
				"who":{"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string","default":"Ada"}}}}},
				"llm":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"2+2"}}],"maxTokens":5}},
				"dirs":{"method":"roots/list"}}}`), nil
		case 2:
			return json.RawMessage(`{"resultType":"input_required","inputRequests":{"again":{"method":"roots/list"}}}`), nil
		}
		return json.RawMessage(`{"resultType":"complete","content":[{"type":"text","text":"done"}]}`), nil
	})
	s := connect(t, f, &Options{
		Elicitation: func(context.Context, *ElicitParams) (*ElicitResult, error) {
			return &ElicitResult{Action: "accept"}, nil
		},
		Sampling: func(context.Context, *CreateMessageParams) (*CreateMessageResult, error) {
			return &CreateMessageResult{Role: "assistant", Model: "m", Content: ContentList{{Type: "text", Text: "4"}}}, nil
		},
		Roots: func(context.Context) ([]Root, error) { return []Root{{URI: "file:///w"}}, nil },
	})
	res, err := s.CallTool(ctx5s(t), "t", map[string]any{"k": "v"})
	if err != nil || res.Text() != "done" {
		t.Fatalf("CallTool: %+v %v", res, err)
	}
	if len(rounds) != 3 {
		t.Fatalf("%d rounds, want 3", len(rounds))
	}
	if rounds[0].ID == rounds[1].ID || rounds[1].ID == rounds[2].ID {
		t.Error("a retry reused the request id")
	}
	retry := string(rounds[1].Params)
	if !strings.Contains(retry, `"requestState":`+state) {
		t.Errorf("requestState not echoed byte for byte: %s", retry)
	}
	var p struct {
		Name           string                     `json:"name"`
		Arguments      map[string]string          `json:"arguments"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   *string                    `json:"requestState"`
	}
	json.Unmarshal(rounds[1].Params, &p)
	want := map[string]string{
		"who":  `{"action":"accept","content":{"n":"Ada"}}`,
		"llm":  `{"role":"assistant","content":{"type":"text","text":"4"},"model":"m"}`,
		"dirs": `{"roots":[{"uri":"file:///w"}]}`,
	}
	for k, v := range want {
		if string(p.InputResponses[k]) != v {
			t.Errorf("inputResponses[%s] = %s, want %s", k, p.InputResponses[k], v)
		}
	}
	if p.Name != "t" || p.Arguments["k"] != "v" {
		t.Errorf("the retry lost the original params: %s", retry)
	}
	// The second round gave no requestState: the third must carry none,
	// and only that round's responses.
	var third struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   *json.RawMessage           `json:"requestState"`
	}
	json.Unmarshal(rounds[2].Params, &third)
	if third.RequestState != nil || len(third.InputResponses) != 1 || third.InputResponses["again"] == nil {
		t.Errorf("third round: %s", rounds[2].Params)
	}
	// Nothing leaks into the next, unrelated call.
	f.Result("tools/list", `{"tools":[]}`)
	s.listTools(ctx5s(t), "")
	if l := f.ParamsOf("tools/list")[0]; l["inputResponses"] != nil || l["requestState"] != nil {
		t.Errorf("round data leaked into tools/list: %v", l)
	}
}

func TestInputRequiredFailures(t *testing.T) {
	for _, tc := range []struct {
		name, method, result string
		want                 string
	}{
		{"unknown resultType", "tools/call", `{"resultType":"partial"}`, `resultType "partial"`},
		{"not allowed here", "tools/list", `{"resultType":"input_required","requestState":"x"}`, "only tools/call"},
		{"no handler", "tools/call", `{"resultType":"input_required","inputRequests":{"a":{"method":"sampling/createMessage","params":{}}}}`, "no handler"},
		{"unknown input method", "tools/call", `{"resultType":"input_required","inputRequests":{"a":{"method":"files/delete"}}}`, "unknown input request"},
		{"endless rounds", "tools/call", `{"resultType":"input_required","requestState":"again"}`, "after 10 rounds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := modernServer(t)
			f.Result(tc.method, tc.result)
			s := connect(t, f, nil)
			var err error
			if tc.method == "tools/call" {
				_, err = s.CallTool(ctx5s(t), "t", nil)
			} else {
				_, err = s.listTools(ctx5s(t), "")
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestListenForChanges(t *testing.T) {
	f := modernServer(t)
	listening := make(chan map[string]any, 4)
	f.Handle("subscriptions/listen", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		var p map[string]any
		json.Unmarshal(r.Params, &p)
		listening <- p["notifications"].(map[string]any)
		f.Conn.Notify(ctx, "notifications/subscriptions/acknowledged", map[string]any{"notifications": p["notifications"]})
		f.Conn.Notify(ctx, "notifications/tools/list_changed", nil)
		f.Conn.Notify(ctx, "notifications/resources/updated", map[string]string{"uri": "file:///a"})
		<-ctx.Done() // the stream stays open until the client closes it
		return nil, ctx.Err()
	})
	changed := make(chan string, 4)
	s := connect(t, f, &Options{
		OnListChanged:     func(kind string) { changed <- kind },
		OnResourceUpdated: func(uri string) { changed <- uri },
	})
	filter := <-listening
	if filter["toolsListChanged"] != true || filter["resourceSubscriptions"] != nil {
		t.Errorf("first filter %v", filter)
	}
	if got := <-changed; got != "tools" {
		t.Errorf("got %q", got)
	}
	if err := s.Subscribe(ctx5s(t), "file:///a"); err != nil {
		t.Fatal(err)
	}
	filter = <-listening
	if diff := cmp.Diff([]any{"file:///a"}, filter["resourceSubscriptions"]); diff != "" {
		t.Errorf("filter after Subscribe (-want +got):\n%s", diff)
	}
	if f.Count("resources/subscribe") != 0 {
		t.Error("resources/subscribe sent in the stateless era")
	}
}

func TestListCacheHonoursTTL(t *testing.T) {
	f := modernServer(t)
	var mu sync.Mutex
	served := 0
	f.Handle("tools/list", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		var p struct{ Cursor string }
		json.Unmarshal(r.Params, &p)
		mu.Lock()
		served++
		mu.Unlock()
		if p.Cursor == "" {
			return json.RawMessage(`{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":"2","ttlMs":60000,"cacheScope":"private"}`), nil
		}
		return json.RawMessage(`{"tools":[{"name":"b","inputSchema":{}}],"ttlMs":0}`), nil
	})
	changed := make(chan string, 1)
	s := connect(t, f, &Options{OnListChanged: func(kind string) { changed <- kind }})
	count := func() int { mu.Lock(); defer mu.Unlock(); return served }
	for range 3 {
		tools, err := Collect(s.Tools(ctx5s(t)))
		if err != nil || len(tools) != 2 || tools[0].Name != "a" || tools[1].Name != "b" {
			t.Fatalf("%v %v", tools, err)
		}
	}
	// The first page (60s) came from the cache; the second (ttl 0) never.
	if got := count(); got != 4 {
		t.Errorf("%d tools/list requests, want 1 + 3", got)
	}
	f.Conn.Notify(ctx5s(t), "notifications/tools/list_changed", nil)
	<-changed // the hook runs once the cached pages are gone
	Collect(s.Tools(ctx5s(t)))
	if got := count(); got != 6 {
		t.Errorf("%d requests after list_changed, want 6", got)
	}
}
