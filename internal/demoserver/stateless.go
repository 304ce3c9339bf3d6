package demoserver

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// StatelessVersion is the stateless era's protocol version the server
// speaks with Options.Stateless.
const StatelessVersion = "2026-07-28"

// stateless reports whether a request is one of the stateless era's,
// which needs no initialize: server/discover, or a request whose _meta
// names the protocol version.
func (ss *session) stateless(req *jsonrpc.Request) bool {
	if !ss.srv.stateless {
		return false
	}
	return req.Method == "server/discover" || bytes.Contains(req.Params, []byte(`"io.modelcontextprotocol/protocolVersion"`))
}

// discover answers server/discover with what the server offers in the
// stateless era: the tasks extension besides skills, and no tasks
// capability of 2025-11-25's kind.
func (ss *session) discover(context.Context, json.RawMessage) (any, error) {
	if !ss.srv.stateless {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: server/discover")
	}
	return map[string]any{
		"resultType":        "complete",
		"supportedVersions": []string{StatelessVersion},
		"capabilities": map[string]any{
			"tools":       map[string]bool{"listChanged": true},
			"prompts":     map[string]bool{"listChanged": true},
			"resources":   map[string]bool{"subscribe": true, "listChanged": true},
			"completions": struct{}{},
			"extensions":  map[string]any{skillsExtension: struct{}{}, tasksExtension: struct{}{}},
		},
		"instructions": ss.srv.instructions,
		"ttlMs":        0,
		"cacheScope":   "public",
		"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": implementation{
			Name: ss.srv.name, Title: "plainmcp demo server", Version: Version}},
	}, nil
}
