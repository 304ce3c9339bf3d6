package mcpext

import (
	"bytes"
	"encoding/json"
)

// Who may see a tool, as _meta.ui.visibility names them (MCP Apps).
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// UIVisibility decodes a tool's _meta.ui.visibility: nil when the tool
// leaves it out (visible to all), bad when it is there but not a list of
// strings (visible to none: it fails closed). The model-visibility filter
// every registry host runs needs this one member, so it lives here, apart
// from package mcpclient/apps, which holds the rest of the extension.
func UIVisibility(meta json.RawMessage) (vis []string, bad bool) {
	var m struct {
		UI json.RawMessage `json:"ui"`
	}
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return nil, false
	}
	ui := bytes.TrimSpace(m.UI)
	if len(ui) == 0 || ui[0] != '{' {
		return nil, false
	}
	var w struct {
		Visibility json.RawMessage `json:"visibility"`
	}
	if json.Unmarshal(ui, &w) != nil || len(w.Visibility) == 0 || bytes.Equal(w.Visibility, []byte("null")) {
		return nil, false
	}
	vis = []string{}
	if json.Unmarshal(w.Visibility, &vis) != nil {
		return nil, true
	}
	return vis, false
}

// UIVisibleTo reports whether a tool with this _meta may be seen by who
// (VisibleToModel or VisibleToApp).
func UIVisibleTo(meta json.RawMessage, who string) bool {
	vis, bad := UIVisibility(meta)
	if bad {
		return false
	}
	if vis == nil {
		return true
	}
	for _, v := range vis {
		if v == who {
			return true
		}
	}
	return false
}
