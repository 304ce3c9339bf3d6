package webui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/remote"
	"github.com/plainmcp/plainmcp/transport"
)

// askerEnv makes the test binary the asker server, on its stdin and
// stdout: a real process, whose stderr the page shows.
const askerEnv = "PLAINMCP_WEBUI_ASKER"

func TestMain(m *testing.M) {
	if os.Getenv(askerEnv) != "" {
		childexit.Exit(serveAsker())
	}
	os.Exit(m.Run())
}

// askSchema is the asker's form: a required name and a titled one-of.
const askSchema = `{"type":"object","required":["name"],"properties":{
 "name":{"type":"string","title":"Your name"},
 "level":{"type":"string","title":"Level","oneOf":[{"const":"lo","title":"Low"},{"const":"hi","title":"High"}]}}}`

// serveAsker is a server that writes to stderr, logs, and whose tools ask
// the client: ask samples the model, then elicits a form; visit asks the
// person to open a page. Each tool's result says what it was answered.
func serveAsker() int {
	fmt.Fprintln(os.Stderr, "asker: started, waiting on stdin")
	var conn atomic.Pointer[jsonrpc.Conn]
	handle := func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		switch req.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			json.Unmarshal(req.Params, &p)
			return map[string]any{"protocolVersion": p.ProtocolVersion, "serverInfo": map[string]any{"name": "asker", "version": "1"},
				"capabilities": map[string]any{"tools": map[string]any{}, "logging": map[string]any{}}}, nil
		case "logging/setLevel":
			var p struct {
				Level string `json:"level"`
			}
			json.Unmarshal(req.Params, &p)
			fmt.Fprintln(os.Stderr, "asker: log level is now "+p.Level)
			return map[string]any{}, nil
		case "tools/list":
			return json.RawMessage(`{"tools":[{"name":"ask","inputSchema":{"type":"object"}},{"name":"visit","inputSchema":{"type":"object"}},{"name":"roots","inputSchema":{"type":"object"}}]}`), nil
		case "tools/call":
			return askerCall(ctx, conn.Load(), req)
		}
		return nil, jsonrpc.ErrMethodNotFound
	}
	c := jsonrpc.NewConn(transport.NewLineStream(os.Stdin, os.Stdout, nil), &jsonrpc.Options{Handler: handle,
		OnNotification: func(_ context.Context, n *jsonrpc.Request) {
			if n.Method == "notifications/roots/list_changed" {
				fmt.Fprintln(os.Stderr, "asker: the roots changed")
			}
		}})
	conn.Store(c)
	<-c.Done()
	return 0
}

func askerCall(ctx context.Context, c *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
	var p struct {
		Name string `json:"name"`
	}
	json.Unmarshal(req.Params, &p)
	if p.Name == "roots" {
		var res struct {
			Roots []struct {
				URI string `json:"uri"`
			} `json:"roots"`
		}
		err := c.Call(ctx, "roots/list", nil, &res)
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("roots: %v %v", res.Roots, err)}}}, nil
	}
	c.Notify(ctx, "notifications/message", map[string]any{"level": "warning", "logger": "asker", "data": "about to ask the person"})
	text := ""
	if p.Name == "visit" {
		var res map[string]any
		err := c.Call(ctx, "elicitation/create", map[string]any{"mode": "url", "elicitationId": "v1", "url": "https://example.com/login",
			"message": "Sign in to example.com"}, &res)
		text = fmt.Sprintf("visit: %v %v", res["action"], err)
	} else {
		var sample struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		err := c.Call(ctx, "sampling/createMessage", map[string]any{"maxTokens": 50,
			"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "Name a colour"}}}}, &sample)
		var form struct {
			Action  string          `json:"action"`
			Content json.RawMessage `json:"content"`
		}
		err2 := c.Call(ctx, "elicitation/create", map[string]any{"message": "Who are you?", "requestedSchema": json.RawMessage(askSchema)}, &form)
		text = fmt.Sprintf("model: %s %v; form: %s %s %v", sample.Content.Text, err, form.Action, form.Content, err2)
	}
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}, nil
}

// startAsker serves a page over the asker, started as a real process
// whose session options are hooked into the page's inbox.
func startAsker(t *testing.T) *Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(askerEnv, "1") // the server inherits the environment
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	inbox := &Inbox{}
	trace := &Trace{}
	conf := &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "asker", Command: exe}}}
	reg, err := toolreg.New(context.Background(), conf, &toolreg.Options{
		Session:    &mcpclient.Options{},
		WrapStream: trace.Wrap,
		Dial: func(ctx context.Context, sc *toolreg.ServerConfig, o *mcpclient.Options) (*mcpclient.Session, error) {
			own := *o
			inbox.Hook(sc.Name, &own, true, true)
			return (&remote.Dialer{}).Dial(ctx, sc, &own)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	srv, err := Start(&Options{Registry: reg, Trace: trace, Inbox: inbox})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}
