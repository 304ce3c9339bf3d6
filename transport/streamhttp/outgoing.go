package streamhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/plainmcp/plainmcp/internal/reqinfo"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// A message on its way out, and the POST that carries it.

// outgoing is a message on its way: its frame, and what its POST needs to
// know of it.
type outgoing struct {
	id      jsonrpc.ID
	method  string
	frame   []byte
	params  json.RawMessage // once decoded is set
	decoded bool            // the frame was decoded: Write does, a Call need not
}

func (o *outgoing) isRequest() bool { return o.method != "" && o.id.IsValid() }

// newPost builds the POST for message m, and returns the session id it
// carries. info, if not nil, is what the session said about the request.
// The frame is the body as it is: net/http writes it to the connection.
func (h *streamable) newPost(ctx context.Context, info *reqinfo.Info, m *outgoing) (*http.Request, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.b.endpointURL, bytes.NewReader(m.frame))
	if err != nil {
		return nil, "", fmt.Errorf("streamhttp: %w", err)
	}
	h.mu.Lock()
	session, proto := h.session, h.proto
	h.mu.Unlock()
	// One array holds the values of the headers set here, each a slice of
	// one string that cannot grow into the next; keys are written in
	// their canonical form.
	var hv headerValues
	hv.vals = make([]string, 0, 6)
	hv.set(req.Header, "Content-Type", "application/json")
	hv.set(req.Header, "Accept", "application/json, text/event-stream")
	if session != "" {
		hv.set(req.Header, "Mcp-Session-Id", session)
	}
	if proto.Version != "" {
		hv.set(req.Header, "Mcp-Protocol-Version", proto.Version)
	}
	if proto.Stateless && m.method != "" {
		hv.set(req.Header, "Mcp-Method", m.method)
		// The session says what the request names; a bare stream user
		// leaves it to us to find out.
		name, ok := "", false
		if info != nil {
			name, ok = info.Name, info.Name != ""
		} else {
			name, ok = nameOf(m)
		}
		if ok {
			hv.set(req.Header, "Mcp-Name", encodeHeaderValue(name))
		}
		if info != nil {
			for k, v := range info.Headers {
				req.Header.Set(k, encodeHeaderValue(v))
			}
		}
	}
	return req, session, nil
}

// headerValues hands out the values of a request's headers from one
// array.
type headerValues struct{ vals []string }

// set sets the header key, which must be canonical, to value.
func (hv *headerValues) set(h http.Header, key, value string) {
	hv.vals = append(hv.vals, value)
	n := len(hv.vals)
	h[key] = hv.vals[n-1 : n : n]
}

// nameOf returns what Mcp-Name mirrors: params.name of tools/call and
// prompts/get, params.uri of resources/read.
func nameOf(m *outgoing) (string, bool) {
	var p struct {
		Name *string `json:"name"`
		URI  *string `json:"uri"`
	}
	switch m.method {
	case "tools/call", "prompts/get", "resources/read":
	default:
		return "", false
	}
	if !m.decoded {
		if d, err := rpcwire.Decode(m.frame); err == nil {
			m.params = d.Params
		}
		m.decoded = true
	}
	if len(m.params) == 0 || json.Unmarshal(m.params, &p) != nil {
		return "", false
	}
	switch {
	case m.method == "resources/read" && p.URI != nil:
		return *p.URI, true
	case m.method != "resources/read" && p.Name != nil:
		return *p.Name, true
	}
	return "", false
}
