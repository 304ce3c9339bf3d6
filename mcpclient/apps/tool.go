package apps

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// This file decodes what a tool says of its interface; resource.go reads
// and checks the interface itself.

// ToolUI is what a tool's _meta says about its interface. The zero value
// is a tool with no interface, visible to model and app alike.
type ToolUI struct {
	// ResourceURI is the ui:// resource that renders the tool's results;
	// empty when the tool has none (or named something that is not a
	// ui:// URI, which a host must not fetch as an interface).
	ResourceURI string
	// Visibility is the list as the server sent it; nil when it sent
	// none, which means both "model" and "app".
	Visibility []string
	// BadVisibility is set when the server sent a visibility that is not
	// a list of strings. Such a tool is visible to no one: a host cannot
	// tell whom the server meant to hide it from.
	BadVisibility bool
}

// ToolUIOf decodes the tool's MCP Apps metadata: _meta.ui.resourceUri (or the
// older flat _meta["ui/resourceUri"] key that servers still send) and
// _meta.ui.visibility. It never fails: metadata it cannot read counts as
// absent, except a visibility it cannot read (see [ToolUI].BadVisibility).
func ToolUIOf(t *mcpclient.Tool) ToolUI { return decodeToolUI(t.Meta) }

// ModelVisible reports whether the tool may be offered to, and called by,
// the host's model. A host must leave out of the model's tool list every
// tool for which it is false.
func (u ToolUI) ModelVisible() bool { return u.visibleTo(mcpext.VisibleToModel) }

// AppVisible reports whether an app (from the same server) may call the
// tool through the host. A host must refuse an app's tools/call for every
// tool for which it is false.
func (u ToolUI) AppVisible() bool { return u.visibleTo(mcpext.VisibleToApp) }

func (u ToolUI) visibleTo(who string) bool {
	if u.BadVisibility {
		return false
	}
	if u.Visibility == nil {
		return true
	}
	for _, v := range u.Visibility {
		if v == who {
			return true
		}
	}
	return false
}

// toolMetaWire is the part of a tool's _meta the extension defines.
type toolMetaWire struct {
	UI      json.RawMessage `json:"ui"`
	FlatURI json.RawMessage `json:"ui/resourceUri"`
}

type toolUIWire struct {
	ResourceURI json.RawMessage `json:"resourceUri"`
}

func decodeToolUI(meta json.RawMessage) ToolUI {
	var out ToolUI
	var m toolMetaWire
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return out
	}
	var w toolUIWire
	if isObject(m.UI) && json.Unmarshal(m.UI, &w) == nil {
		out.ResourceURI = uiURI(w.ResourceURI)
	}
	// One decoding of the visibility, shared with the registry's model
	// filter, which links none of this package.
	out.Visibility, out.BadVisibility = mcpext.UIVisibility(meta)
	if out.ResourceURI == "" {
		out.ResourceURI = uiURI(m.FlatURI)
	}
	return out
}

// uiURI returns the JSON string raw if it holds a ui:// URI, else "".
func uiURI(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil || !isURI(s) {
		return ""
	}
	return s
}

// isURI reports whether uri is a ui:// URI with something after the
// scheme: the only kind of URI the extension lets name an interface.
func isURI(uri string) bool {
	const scheme = "ui://"
	return len(uri) > len(scheme) && strings.EqualFold(uri[:len(scheme)], scheme)
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}
