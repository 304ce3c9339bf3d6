package streamhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/reqinfo"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// The messages of the benchmarks, and plainmcp's side of the table
// benchmarks (the floor's is bench_floor_test.go): both encode and decode
// the same types with encoding/json.

// benchMeta is the _meta every request carries in the stateless era, as
// the 2026-07-28 specification requires (mcpclient sends the same).
type benchMeta struct {
	Version    string `json:"io.modelcontextprotocol/protocolVersion"`
	ClientInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"io.modelcontextprotocol/clientInfo"`
	Capabilities struct{} `json:"io.modelcontextprotocol/clientCapabilities"`
}

var statelessMeta = func() *benchMeta {
	m := &benchMeta{Version: benchStateless}
	m.ClientInfo.Name, m.ClientInfo.Version = "bench", "1"
	return m
}()

// metaFor is the _meta of a request in the era, nil for none.
func metaFor(stateless bool) *benchMeta {
	if stateless {
		return statelessMeta
	}
	return nil
}

// echoParams is the params of every tools/call here.
type echoParams struct {
	Name      string `json:"name"`
	Arguments struct {
		Text string `json:"text"`
	} `json:"arguments"`
	Meta *benchMeta `json:"_meta,omitempty"`
}

// benchToolParams are the params of a call of each tool in each era,
// made once.
var benchToolParams = func() map[[2]any]*echoParams {
	m := map[[2]any]*echoParams{}
	for _, name := range []string{"echo", "big"} {
		for _, stateless := range []bool{false, true} {
			p := &echoParams{Name: name, Meta: metaFor(stateless)}
			p.Arguments.Text = benchText
			m[[2]any{name, stateless}] = p
		}
	}
	return m
}()

func toolParams(name string, stateless bool) *echoParams {
	return benchToolParams[[2]any{name, stateless}]
}

// echoResult keeps what mcpclient's CallToolResult keeps of text content.
type echoResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

// check checks that the result is want bytes of text: the echo's text,
// or the big tool's.
func (r *echoResult) check(want int) error {
	if len(r.Content) != 1 || len(r.Content[0].Text) != want || r.IsError {
		return fmt.Errorf("unexpected result of %d items", len(r.Content))
	}
	if want == len(benchText) && r.Content[0].Text != benchText {
		return fmt.Errorf("unexpected result %q", r.Content[0].Text)
	}
	return nil
}

type listParams struct {
	Cursor string     `json:"cursor,omitempty"`
	Meta   *benchMeta `json:"_meta,omitempty"`
}

func listParamsFor(cursor string, stateless bool) *listParams {
	return &listParams{Cursor: cursor, Meta: metaFor(stateless)}
}

// listResult keeps what mcpclient's Tool keeps of a listing, but the
// schema raw.
type listResult struct {
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
	NextCursor string `json:"nextCursor"`
}

// oursClient is plainmcp's transport as a session uses it: a
// jsonrpc.Conn over Dial's Stream, telling the transport what each
// request names in the stateless era, as mcpclient does.
type oursClient struct {
	conn      *jsonrpc.Conn
	stateless bool
}

var (
	echoInfo = &reqinfo.Info{Method: "tools/call", Name: "echo"}
	bigInfo  = &reqinfo.Info{Method: "tools/call", Name: "big"}
	listInfo = &reqinfo.Info{Method: "tools/list"}
)

func (c *oursClient) callTool(ctx context.Context, name string, want int) error {
	if c.stateless {
		info := echoInfo
		if name == "big" {
			info = bigInfo
		}
		ctx = reqinfo.With(ctx, info)
	}
	var res echoResult
	if err := c.conn.Call(ctx, "tools/call", toolParams(name, c.stateless), &res); err != nil {
		return err
	}
	return res.check(want)
}

func (c *oursClient) list(ctx context.Context) (int, error) {
	if c.stateless {
		ctx = reqinfo.With(ctx, listInfo)
	}
	n, cursor := 0, ""
	for range 1000 {
		var res listResult
		if err := c.conn.Call(ctx, "tools/list", listParamsFor(cursor, c.stateless), &res); err != nil {
			return 0, err
		}
		n += len(res.Tools)
		if cursor = res.NextCursor; cursor == "" {
			return n, nil
		}
	}
	return 0, errors.New("more than 1000 pages")
}

func (c *oursClient) close() error { return c.conn.Close() }

// dialOurs connects a jsonrpc.Conn over Dial's Stream to the server at url
// and sets the era as a session would: the handshake (initialize, the
// version, the initialized notification) or the stateless protocol at
// once.
func dialOurs(ctx context.Context, url string, stateless bool) (*oursClient, error) {
	stream, err := Dial(ctx, Config{URL: url})
	if err != nil {
		return nil, err
	}
	c := &oursClient{conn: jsonrpc.NewConn(stream, nil), stateless: stateless}
	if stateless {
		stream.SetProtocol(transport.Protocol{Version: benchStateless, Stateless: true})
		return c, nil
	}
	init := map[string]any{
		"protocolVersion": benchHandshake,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "bench", "version": "1"},
	}
	var res struct {
		Capabilities map[string]map[string]any `json:"capabilities"`
	}
	err = c.conn.Call(ctx, "initialize", init, &res)
	if err == nil {
		stream.SetProtocol(transport.Protocol{Version: benchHandshake, Quiet: quietServer(res.Capabilities)})
		err = c.conn.Notify(ctx, "notifications/initialized", nil)
	}
	if err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// quietServer is mcpclient's rule for transport.Protocol.Quiet, for a
// client that declares no capabilities (as here): the server declared
// nothing it would send unasked.
func quietServer(caps map[string]map[string]any) bool {
	for _, kind := range []string{"tools", "prompts", "resources"} {
		if caps[kind]["listChanged"] == true {
			return false
		}
	}
	_, logging := caps["logging"]
	_, tasks := caps["tasks"]
	_, experimental := caps["experimental"]
	return caps["resources"]["subscribe"] != true && !logging && !tasks && !experimental
}

// benchParams is the params of an echo call in the handshake era.
var benchParams = toolParams("echo", false)
