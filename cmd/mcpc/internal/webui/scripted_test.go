package webui

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// scripted is a server for the page's tests: greet needs a name, slow
// reports progress and runs until it is cancelled, and the others give a
// search something to find.
type scripted struct {
	greets    atomic.Int64  // greet calls that reached the server
	cancelled chan struct{} // closed at the first notifications/cancelled
	once      sync.Once
	conn      atomic.Pointer[jsonrpc.Conn]
}

var scriptedTools = json.RawMessage(`{"tools":[
 {"name":"greet","title":"Greeter","description":"Greets a person by name.","inputSchema":{"type":"object","required":["name"],"properties":{
  "name":{"type":"string","title":"Your name","description":"Who to greet"},
  "times":{"type":"integer","minimum":1,"maximum":3},
  "mood":{"type":"string","oneOf":[{"const":"warm","title":"Warmly"},{"const":"cool","title":"Coolly"}]}}}},
 {"name":"slow","description":"Takes its time, reporting progress.","inputSchema":{"type":"object"}},
 {"name":"find_apples","description":"Lists the apples in the orchard.","inputSchema":{"type":"object"}},
 {"name":"count_pears","description":"Counts pears.","inputSchema":{"type":"object"}},
 {"name":"big","description":"Returns a long text and an image.","inputSchema":{"type":"object"}},
 {"name":"backtrack","description":"A pattern that backtracks, with a default it cannot match.","inputSchema":{"type":"object","properties":{"s":{"type":"string","pattern":"^(a|a)*$","default":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}}}},
 {"name":"wide","description":"Takes more arguments than a form lays out.","inputSchema":{"type":"object","properties":{` + wideProperties(300) + `}}}
]}`)

// wideProperties is n string properties, p0 to p(n-1), each with a long
// description: a schema no page should lay out field by field.
func wideProperties(n int) string {
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf(`"p%d":{"type":"string","description":%q}`, i, strings.Repeat("x", 3000))
	}
	return strings.Join(props, ",")
}

func (s *scripted) serve(st jsonrpc.Stream) *jsonrpc.Conn {
	c := jsonrpc.NewConn(st, &jsonrpc.Options{Handler: s.handle, OnNotification: func(_ context.Context, n *jsonrpc.Request) {
		if n.Method == "notifications/cancelled" {
			s.once.Do(func() { close(s.cancelled) })
		}
	}})
	s.conn.Store(c)
	return c
}

func (s *scripted) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(req.Params, &p)
		return map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}, "resources": map[string]any{}, "prompts": map[string]any{}},
			"serverInfo": map[string]any{"name": "scripted", "version": "1"}}, nil
	case "prompts/list":
		return json.RawMessage(`{"prompts":[{"name":"haiku","description":"A haiku on a topic","arguments":[{"name":"topic","title":"Topic","required":true}]}]}`), nil
	case "prompts/get":
		var p struct {
			Arguments map[string]string `json:"arguments"`
		}
		json.Unmarshal(req.Params, &p)
		return map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "Write a haiku about " + p.Arguments["topic"]}}}}, nil
	case "resources/list":
		return map[string]any{"resources": []any{}}, nil
	case "resources/templates/list":
		return map[string]any{"resourceTemplates": []any{map[string]any{"uriTemplate": "notes://{owner}/{name}{?lang}", "name": "note", "description": "A note"}}}, nil
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		json.Unmarshal(req.Params, &p)
		return map[string]any{"contents": []any{map[string]any{"uri": p.URI, "mimeType": "text/plain", "text": "read " + p.URI}}}, nil
	case "tools/list":
		return scriptedTools, nil
	case "tools/call":
		return s.call(ctx, req)
	}
	return nil, jsonrpc.ErrMethodNotFound
}

func (s *scripted) call(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		Meta      struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	json.Unmarshal(req.Params, &p)
	switch p.Name {
	case "greet":
		s.greets.Add(1)
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("Hello, %v!", p.Arguments["name"])}}}, nil
	case "slow":
		if len(p.Meta.ProgressToken) > 0 {
			s.conn.Load().Notify(ctx, "notifications/progress", map[string]any{"progressToken": p.Meta.ProgressToken,
				"progress": 1, "total": 4, "message": "warming up"})
		}
		select {
		case <-s.cancelled:
		case <-ctx.Done():
		}
		return nil, &jsonrpc.Error{Code: -32800, Message: "cancelled"}
	case "big":
		return map[string]any{"content": []any{
			map[string]any{"type": "text", "text": strings.Repeat("long ", 1000)},
			map[string]any{"type": "image", "mimeType": "image/png", "data": bigImage},
		}}, nil
	}
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}, nil
}

// bigImage is 30 KB of base64: too much to show as text.
var bigImage = base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 5000))

// startScripted serves a page over the appserver ("apps") and a scripted
// server ("script").
func startScripted(t *testing.T) (*Server, *scripted) {
	t.Helper()
	sc := &scripted{cancelled: make(chan struct{})}
	app := appserver.New()
	trace := &Trace{}
	conf := &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "apps", Type: "memory"}, {Name: "script", Type: "memory"}}}
	reg, err := toolreg.New(context.Background(), conf, &toolreg.Options{
		Session:    &mcpclient.Options{UI: true},
		WrapStream: trace.Wrap,
		Dial: func(ctx context.Context, c *toolreg.ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
			client, server := transport.Pipe()
			var conn *jsonrpc.Conn
			if c.Name == "script" {
				conn = sc.serve(server)
			} else {
				conn = app.Serve(server)
			}
			s, err := mcpclient.Connect(ctx, client, so)
			if err != nil {
				conn.Close()
				return nil, err
			}
			go func() { <-s.Done(); conn.Close() }()
			return s, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	srv, err := Start(&Options{Registry: reg, Trace: trace})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, sc
}
