// Package appserver is a small MCP server that offers an MCP App (the
// io.modelcontextprotocol/ui extension), for tests of hosts: a clock tool
// whose interface shows the time the tool returned and calls the tool
// again from its own button, an app-only tool, a model-only tool, and the
// ui:// resource with _meta.ui in its listing and in its read. It speaks
// the handshake era over any jsonrpc.Stream and counts the reads of its
// interface.
package appserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The app's resource URI and MIME type.
const (
	AppURI   = "ui://clock/app.html"
	MimeType = "text/html;profile=mcp-app"
)

// Server is one server; its zero value is not usable, see New.
type Server struct {
	// Reads counts the resources/read requests for AppURI.
	Reads atomic.Int64
	// Now tells the time the clock tool returns.
	Now func() time.Time
	// CSP is the _meta.ui.csp the read sends (nil: none).
	CSP map[string][]string
	// HTML is the interface's page; empty means the built-in App.
	HTML string
	// Title and Instructions, if set, go out in the initialize result
	// (serverInfo.title, instructions).
	Title, Instructions string

	mu    sync.Mutex
	conns []*jsonrpc.Conn
}

// New returns a server whose clock is time.Now.
func New() *Server { return &Server{Now: time.Now} }

// Serve answers on st until it ends.
func (s *Server) Serve(st jsonrpc.Stream) *jsonrpc.Conn {
	c := jsonrpc.NewConn(st, &jsonrpc.Options{Handler: s.handle})
	s.mu.Lock()
	s.conns = append(s.conns, c)
	s.mu.Unlock()
	return c
}

// ResourcesChanged sends notifications/resources/list_changed on every
// connection.
func (s *Server) ResourcesChanged(ctx context.Context) {
	s.mu.Lock()
	conns := append([]*jsonrpc.Conn(nil), s.conns...)
	s.mu.Unlock()
	for _, c := range conns {
		c.Notify(ctx, "notifications/resources/list_changed", map[string]any{})
	}
}

var tools = json.RawMessage(`{"tools":[
 {"name":"clock","title":"Clock","description":"Tells the time.","inputSchema":{"type":"object","properties":{"zone":{"type":"string"}}},
  "annotations":{"readOnlyHint":true},"_meta":{"ui":{"resourceUri":"` + AppURI + `"}}},
 {"name":"tick","description":"Advances the clock; for the app only.","inputSchema":{"type":"object"},
  "_meta":{"ui":{"resourceUri":"` + AppURI + `","visibility":["app"]}}},
 {"name":"note","description":"Writes a note; for the model only.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}},
  "_meta":{"ui":{"visibility":["model"]}}},
 {"name":"legacy","description":"An interface named the old way.","inputSchema":{"type":"object"},"_meta":{"ui/resourceUri":"` + AppURI + `"}}
]}`)

func (s *Server) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(req.Params, &p)
		info := map[string]any{"name": "appserver", "version": "1.0"}
		if s.Title != "" {
			info["title"] = s.Title
		}
		res := map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}, "resources": map[string]any{"listChanged": true}},
			"serverInfo":      info,
		}
		if s.Instructions != "" {
			res["instructions"] = s.Instructions
		}
		return res, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		return tools, nil
	case "resources/list":
		return map[string]any{"resources": []any{map[string]any{
			"uri": AppURI, "name": "clock", "mimeType": MimeType,
			"_meta": map[string]any{"ui": map[string]any{"prefersBorder": true, "domain": "listed.example"}},
		}}}, nil
	case "resources/templates/list":
		return map[string]any{"resourceTemplates": []any{}}, nil
	case "resources/read":
		return s.read(req)
	case "tools/call":
		return s.call(req)
	}
	return nil, jsonrpc.ErrMethodNotFound
}

func (s *Server) read(req *jsonrpc.Request) (any, error) {
	var p struct {
		URI string `json:"uri"`
	}
	json.Unmarshal(req.Params, &p)
	if p.URI != AppURI {
		return nil, &jsonrpc.Error{Code: -32002, Message: "no such resource"}
	}
	s.Reads.Add(1)
	ui := map[string]any{"prefersBorder": false}
	if s.CSP != nil {
		ui["csp"] = s.CSP
	}
	html := s.HTML
	if html == "" {
		html = App
	}
	return map[string]any{"contents": []any{map[string]any{
		"uri": AppURI, "mimeType": MimeType, "text": html, "_meta": map[string]any{"ui": ui},
	}}}, nil
}

func (s *Server) call(req *jsonrpc.Request) (any, error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	json.Unmarshal(req.Params, &p)
	switch p.Name {
	case "clock", "legacy", "tick":
		t := s.Now().UTC().Format(time.RFC3339Nano)
		return map[string]any{
			"content":           []any{map[string]any{"type": "text", "text": "The time is " + t}},
			"structuredContent": map[string]any{"time": t},
		}, nil
	case "note":
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "noted: " + string(p.Arguments)}}}, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", p.Name)}
}
