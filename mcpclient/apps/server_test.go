package apps

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// readServer is a handshake-era MCP server over an in-memory pipe that
// answers every resources/read with contents (a JSON array) and records
// the URIs it was asked for.
type readServer struct {
	contents string
	mu       sync.Mutex
	uris     []string
}

func (r *readServer) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "initialize":
		return json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"resources":{}},"serverInfo":{"name":"apps-test","version":"1"}}`), nil
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "%v", err)
		}
		r.mu.Lock()
		r.uris = append(r.uris, p.URI)
		r.mu.Unlock()
		return json.RawMessage(`{"contents":` + r.contents + `}`), nil
	}
	return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "no method %q", req.Method)
}

// asked returns the URIs resources/read was called with.
func (r *readServer) asked() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.uris...)
}

// connect starts the server and returns a session to it, both closed when
// the test ends.
func (r *readServer) connect(t *testing.T) *mcpclient.Session {
	t.Helper()
	client, server := transport.Pipe()
	conn := jsonrpc.NewConn(server, &jsonrpc.Options{Handler: r.handle})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := mcpclient.Connect(ctx, client, &mcpclient.Options{UI: true, Era: mcpclient.EraHandshake})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		conn.Close()
	})
	return s
}
