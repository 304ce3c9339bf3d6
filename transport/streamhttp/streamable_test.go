package streamhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/reqinfo"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/transport"
)

// mcpHTTP is a scriptable Streamable HTTP server: answer decides how each
// POSTed request is answered; the requests are recorded.
type mcpHTTP struct {
	t      *testing.T
	srv    *httptest.Server
	answer func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message)
	get    func(w http.ResponseWriter, r *http.Request)
	posted func(m *rpcwire.Message) // if set, told of every message POSTed

	mu       sync.Mutex
	posts    []*http.Request
	bodies   []*rpcwire.Message
	deletes  int
	gets     []*http.Request
	getTimes []time.Time
}

func newMCPHTTP(t *testing.T) *mcpHTTP {
	f := &mcpHTTP{t: t}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *mcpHTTP) serve(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		body, _ := io.ReadAll(r.Body)
		m, err := rpcwire.Decode(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.posts = append(f.posts, r)
		f.bodies = append(f.bodies, m)
		posted := f.posted
		f.mu.Unlock()
		if posted != nil {
			posted(m)
		}
		if !m.IsRequest() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		f.answer(w, r, m)
	case http.MethodGet:
		f.mu.Lock()
		f.gets = append(f.gets, r)
		f.getTimes = append(f.getTimes, time.Now())
		get := f.get
		f.mu.Unlock()
		if get == nil {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		get(w, r)
	case http.MethodDelete:
		f.mu.Lock()
		f.deletes++
		f.mu.Unlock()
	}
}

func jsonAnswer(w http.ResponseWriter, m *rpcwire.Message, result string) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(rpcwire.AppendResult(nil, m.ID, json.RawMessage(result)))
}

func sseHeader(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
}

func sseEvent(w http.ResponseWriter, id, data string) {
	if id != "" {
		fmt.Fprintf(w, "id: %s\n", id)
	}
	fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

// dialHTTP makes a transport and a jsonrpc.Conn over it.
func dialHTTP(t *testing.T, f *mcpHTTP, cfg Config, opts *jsonrpc.Options) (*streamable, *jsonrpc.Conn) {
	t.Helper()
	cfg.URL = f.srv.URL + "/mcp"
	h, err := newStreamable(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonrpc.NewConn(h, opts)
	t.Cleanup(func() { c.Close() })
	return h, c
}

func ctx5(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestHTTPJSONAndSSEAnswers(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	sampled := make(chan struct{}) // closed once the client answered s1
	var once sync.Once
	f.posted = func(m *rpcwire.Message) {
		if m.IsResponse() && m.ID == rpcwire.StringID("s1") {
			once.Do(func() { close(sampled) })
		}
	}
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		switch m.Method {
		case "initialize":
			w.Header().Set("Mcp-Session-Id", "sess-1")
			jsonAnswer(w, m, `{"protocolVersion":"2025-11-25"}`)
		case "tools/call":
			sseHeader(w)
			sseEvent(w, "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`)
			sseEvent(w, "", `{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}`)
			// wait for the client's answer to our request, then respond
			select {
			case <-sampled:
			case <-r.Context().Done():
				return
			}
			sseEvent(w, "", string(rpcwire.AppendResult(nil, m.ID, json.RawMessage(`{"content":[]}`))))
		}
	}
	var notes []string
	var mu sync.Mutex
	h, c := dialHTTP(t, f, Config{Headers: map[string]secret.String{"X-Tenant": secret.New("acme")}, BearerToken: secret.New("s3cret")}, &jsonrpc.Options{
		OnNotification: func(_ context.Context, n *jsonrpc.Request) { mu.Lock(); notes = append(notes, n.Method); mu.Unlock() },
		Handler: func(_ context.Context, r *jsonrpc.Request) (any, error) {
			return map[string]string{"model": "m"}, nil
		},
	})
	var res map[string]any
	if err := c.Call(ctx5(t), "initialize", map[string]any{}, &res); err != nil || res["protocolVersion"] != "2025-11-25" {
		t.Fatalf("initialize: %v %v", res, err)
	}
	if h.SessionID() != "sess-1" {
		t.Errorf("session %q", h.SessionID())
	}
	h.SetProtocol(transport.Protocol{Version: "2025-11-25"})
	if err := c.Call(ctx5(t), "tools/call", map[string]any{"name": "x"}, &res); err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	c.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	first, last := f.posts[0], f.posts[len(f.posts)-1]
	if first.Header.Get("Mcp-Session-Id") != "" || first.Header.Get("MCP-Protocol-Version") != "" {
		t.Errorf("initialize carried session or version headers: %v", first.Header)
	}
	for _, p := range f.posts {
		if p.Header.Get("Authorization") != "Bearer s3cret" || p.Header.Get("X-Tenant") != "acme" ||
			p.Header.Get("Accept") != "application/json, text/event-stream" || p.Header.Get("Content-Type") != "application/json" {
			t.Errorf("POST headers: %v", p.Header)
		}
	}
	if last.Header.Get("Mcp-Session-Id") != "sess-1" || last.Header.Get("MCP-Protocol-Version") != "2025-11-25" {
		t.Errorf("later POST headers: %v", last.Header)
	}
	// The client answered the sampling request by POST.
	var answered bool
	for _, m := range f.bodies {
		if m.IsResponse() && m.ID == rpcwire.StringID("s1") && strings.Contains(string(m.Result), `"model"`) {
			answered = true
		}
	}
	if !answered {
		t.Error("the server's request was not answered")
	}
	if f.deletes != 1 {
		t.Errorf("%d DELETEs on Close, want 1", f.deletes)
	}
	if len(f.gets) != 1 || f.gets[0].Header.Get("Mcp-Session-Id") != "sess-1" {
		t.Errorf("GET stream requests: %d", len(f.gets))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) != 1 || notes[0] != "notifications/progress" {
		t.Errorf("notifications: %v", notes)
	}
}

func TestHTTPStreamLostWithoutEventIDs(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		sseHeader(w)
		sseEvent(w, "", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)
	}
	_, c := dialHTTP(t, f, Config{}, nil)
	err := c.Call(ctx5(t), "tools/call", nil, nil)
	var lost *rpcwire.ResponseLostError
	if !errors.As(err, &lost) || !errors.Is(err, jsonrpc.ErrResponseLost) || !strings.Contains(err.Error(), "ended before the response") {
		t.Errorf("err = %v, want a *rpcwire.ResponseLostError", err)
	}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		t.Errorf("a lost response came as a JSON-RPC error %v: a server could forge that", rpcErr)
	}
}

func TestHTTPSessionExpired(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "old")
			jsonAnswer(w, m, `{}`)
			return
		}
		http.NotFound(w, r)
	}
	h, c := dialHTTP(t, f, Config{}, nil)
	c.Call(ctx5(t), "initialize", nil, nil)
	err := c.Call(ctx5(t), "tools/list", nil, nil)
	if !errors.Is(err, transport.ErrSessionExpired) {
		t.Fatalf("err = %v", err)
	}
	if h.SessionID() != "" {
		t.Error("expired session id kept")
	}
	// Without a session, a 404 is just an HTTP error (the legacy fallback
	// looks at it).
	err = c.Call(ctx5(t), "tools/list", nil, nil)
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 404 {
		t.Errorf("err = %v", err)
	}
}

func TestHTTPErrorBodies(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		switch m.Method {
		case "modern":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}`))
		case "plain":
			http.Error(w, "no such endpoint\nat all", http.StatusMethodNotAllowed)
		case "long":
			http.Error(w, "upstream down"+strings.Repeat(" and more", 20000), http.StatusBadGateway)
		case "html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>"))
		}
	}
	_, c := dialHTTP(t, f, Config{}, nil)
	err := c.Call(ctx5(t), "modern", nil, nil)
	var e *jsonrpc.Error
	if !errors.As(err, &e) || e.Code != -32022 || string(e.Data) != `{"supported":["2026-07-28"]}` {
		t.Errorf("modern error: %v", err)
	}
	err = c.Call(ctx5(t), "plain", nil, nil)
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 405 || he.Body != "no such endpoint at all" {
		t.Errorf("plain: %v", err)
	}
	// A body past the limit is quoted from its start, not dropped.
	err = c.Call(ctx5(t), "long", nil, nil)
	if !errors.As(err, &he) || he.StatusCode != 502 || !strings.HasPrefix(he.Body, "upstream down and more") {
		t.Errorf("long: %v", err)
	}
	if err := c.Call(ctx5(t), "html", nil, nil); err == nil || !strings.Contains(err.Error(), "text/html") {
		t.Errorf("html: %v", err)
	}
}

func TestHTTPStatelessHeaders(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		w.Header().Set("Mcp-Session-Id", "must-be-ignored")
		jsonAnswer(w, m, `{}`)
	}
	h, c := dialHTTP(t, f, Config{}, nil)
	h.SetProtocol(transport.Protocol{Version: "2026-07-28", Stateless: true})
	// The session names the request and its extra headers; a request
	// without that info (or with another method's) is read for its name.
	info := &reqinfo.Info{Method: "tools/call", Name: "weather/now", Headers: map[string]string{"Mcp-Param-Region": "Zürich"}}
	calls := []struct {
		method, params, name, region string
		info                         *reqinfo.Info
	}{
		{"tools/call", `{"name":"get_weather"}`, "weather/now", "=?base64?WsO8cmljaA==?=", info},
		{"tools/call", `{"name":"get_weather"}`, "get_weather", "", nil},
		{"prompts/get", `{"name":"Grüße"}`, "=?base64?R3LDvMOfZQ==?=", "", info},
		{"resources/read", `{"uri":"file:///a b"}`, "file:///a b", "", nil},
		{"tools/list", `{}`, "", "", nil},
	}
	for _, tc := range calls {
		ctx := ctx5(t)
		if tc.info != nil {
			ctx = reqinfo.With(ctx, tc.info)
		}
		if err := c.Call(ctx, tc.method, json.RawMessage(tc.params), nil); err != nil {
			t.Fatal(err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, tc := range calls {
		hd := f.posts[i].Header
		if hd.Get("Mcp-Method") != tc.method || hd.Get("Mcp-Name") != tc.name || hd.Get("MCP-Protocol-Version") != "2026-07-28" ||
			hd.Get("Mcp-Session-Id") != "" || hd.Get("Mcp-Param-Region") != tc.region {
			t.Errorf("%s headers: %v", tc.method, hd)
		}
	}
	if len(f.gets) != 0 {
		t.Error("a GET stream was opened in the stateless era")
	}
}

func TestEncodeHeaderValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"us-west1", "us-west1"},
		{"Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{" padded ", "=?base64?IHBhZGRlZCA=?="},
		{"line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{"=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		{"inner space", "inner space"},
		{"", ""},
	} {
		if got := encodeHeaderValue(tc.in); got != tc.want {
			t.Errorf("encodeHeaderValue(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHTTPConfigChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no scheme", Config{URL: "localhost:8080/mcp"}, "http or https"},
		{"reserved header", Config{URL: "http://x", Headers: map[string]secret.String{"Mcp-Session-Id": secret.New("a")}}, "set by the transport"},
		{"param header", Config{URL: "http://x", Headers: map[string]secret.String{"Mcp-Param-X": secret.New("a")}}, "set by the transport"},
		{"line break", Config{URL: "http://x", Headers: map[string]secret.String{"X-A": secret.New("a\r\nInjected: yes")}}, "line break"},
		{"bad name", Config{URL: "http://x", Headers: map[string]secret.String{"X A": secret.New("a")}}, "name"},
		{"token with newline", Config{URL: "http://x", BearerToken: secret.New("a\nb")}, "bearer"},
	} {
		if _, err := newStreamable(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestBearerNotSentAcrossOrigins(t *testing.T) {
	checkLeaks(t)
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, "other:"+r.Header.Get("Authorization")+":"+r.Header.Get("X-Tenant"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}))
	defer other.Close()
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		mu.Lock()
		seen = append(seen, "home:"+r.Header.Get("Authorization"))
		mu.Unlock()
		http.Redirect(w, r, other.URL+"/elsewhere", http.StatusTemporaryRedirect)
	}
	_, c := dialHTTP(t, f, Config{BearerToken: secret.New("s3cret"), Headers: map[string]secret.String{"X-Tenant": secret.New("acme")}}, nil)
	// A redirect to another origin is not followed at all.
	err := c.Call(ctx5(t), "tools/list", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "another origin ("+origin(mustParseURL(t, other.URL))+")") {
		t.Errorf("err = %v, want the redirect refused", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != "home:Bearer s3cret" {
		t.Errorf("requests: %q", seen)
	}
}

func TestHTTPCloseEndsStreams(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	release := make(chan struct{})
	streaming := make(chan struct{}, 1)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		sseHeader(w)
		sseEvent(w, "1", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)
		streaming <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
	defer close(release)
	h, c := dialHTTP(t, f, Config{}, nil)
	errs := make(chan error, 1)
	go func() { errs <- c.Call(context.Background(), "tools/call", nil, nil) }()
	<-streaming // the call is under way, its stream open
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() { defer wg.Done(); h.Close() }()
	}
	wg.Wait()
	select {
	case err := <-errs:
		if !errors.Is(err, jsonrpc.ErrClosed) {
			t.Errorf("pending call: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the pending call")
	}
}

func TestHTTPNoGETStreamBeforeAVersion(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) { jsonAnswer(w, m, `{}`) }
	f.get = func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusMethodNotAllowed) }
	h, c := dialHTTP(t, f, Config{}, nil)
	h.SetProtocol(transport.Protocol{}) // the reset before a handshake
	c.Call(ctx5(t), "initialize", nil, nil)
	f.mu.Lock()
	n := len(f.gets)
	f.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d GET requests before a version was agreed", n)
	}
	// SetProtocol returns once the server answered the GET (405 here), and
	// a second one would wait for its own: no polling is needed.
	h.SetProtocol(transport.Protocol{Version: "2025-11-25"})
	f.mu.Lock()
	n = len(f.gets)
	f.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d GET requests after the version was agreed, want 1", n)
	}
	h.SetProtocol(transport.Protocol{Version: "2025-11-25"}) // opens no second one
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.gets) != 1 {
		t.Errorf("%d GET requests, want 1", len(f.gets))
	}
}

func TestHTTPStatelessDropsCancelledNotifications(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	h, c := dialHTTP(t, f, Config{}, nil)
	h.SetProtocol(transport.Protocol{Version: "2026-07-28", Stateless: true})
	if err := c.Notify(ctx5(t), "notifications/cancelled", map[string]any{"requestId": 1}); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.posts) != 0 {
		t.Error("notifications/cancelled was POSTed on the stateless wire")
	}
}

func TestAuthorizationOfAnyScheme(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	var mu sync.Mutex
	var got string
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		mu.Lock()
		got = r.Header.Get("Authorization")
		mu.Unlock()
		http.Error(w, "denied for Basic dXNlcjpzM2NyZXQtcGFzcw==", http.StatusBadRequest)
	}
	_, c := dialHTTP(t, f, Config{Authorization: secret.New("Basic dXNlcjpzM2NyZXQtcGFzcw==")}, nil)
	err := c.Call(ctx5(t), "tools/list", nil, nil)
	mu.Lock()
	defer mu.Unlock()
	if got != "Basic dXNlcjpzM2NyZXQtcGFzcw==" {
		t.Errorf("Authorization = %q", got)
	}
	if err == nil || strings.Contains(err.Error(), "dXNlcjpzM2NyZXQtcGFzcw") {
		t.Errorf("err = %v, want an error without the credential", err)
	}
	if _, err := Dial(ctx5(t), Config{URL: f.srv.URL, Authorization: secret.New("Basic x"), BearerToken: secret.New("y")}); err == nil {
		t.Error("Dial with both Authorization and BearerToken succeeded")
	}
}
