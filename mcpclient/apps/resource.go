package apps

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// maxSize caps the HTML of one interface, in bytes: a larger one is
// refused rather than handed to a browser.
const maxSize = 16 << 20

// ErrNotUI is returned by [Read] for a URI that is not ui://
// and for contents whose MIME type is not text/html;profile=mcp-app: the extension
// defines no other kind of interface, and a host must not render one.
var ErrNotUI = errors.New("apps: not an MCP App interface")

// Resource is an MCP App's interface as [Read] read it: the
// HTML to render and the metadata that says how to sandbox it. Everything
// in it comes from the server: the HTML belongs in a sandboxed frame on
// an origin of its own, never in the host's page.
type Resource struct {
	URI      string
	MimeType string
	HTML     string
	Meta     Meta
}

// Meta is a ui:// resource's _meta.ui: what the interface may reach and
// how it would like to be shown.
type Meta struct {
	CSP         CSP
	Permissions Permissions
	// Domain is the dedicated sandbox origin the server asks for; its
	// format is the host's to define, and a host may ignore it.
	Domain string
	// PrefersBorder is the server's wish for a visible border and
	// background; nil leaves it to the host.
	PrefersBorder *bool
}

// CSP lists the origins an interface may reach, by kind. An empty list
// means none: a host builds the Content-Security-Policy from these and
// allows nothing they do not name ([CSP.Policy]).
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// Permissions are the browser features an interface asks for. A host
// may grant them (an iframe's allow attribute, [Permissions.Allow]).
type Permissions struct {
	Camera         bool
	Microphone     bool
	Geolocation    bool
	ClipboardWrite bool
}

// metaWire is _meta.ui on the wire. Fields are raw so that a field the
// read sends can be told from one it leaves out: the read's wins.
type metaWire struct {
	CSP           json.RawMessage `json:"csp"`
	Permissions   json.RawMessage `json:"permissions"`
	Domain        json.RawMessage `json:"domain"`
	PrefersBorder json.RawMessage `json:"prefersBorder"`
}

// decodeMeta decodes the _meta.ui of a ui:// resource from the listing
// (listed, a resource's Meta) and from the read (read, the contents'
// Meta). A field the read sets wins over the listing's; a field neither
// sets, or that does not decode, is left zero.
func decodeMeta(listed, read json.RawMessage) Meta {
	var m Meta
	for _, meta := range []json.RawMessage{listed, read} {
		var outer struct {
			UI json.RawMessage `json:"ui"`
		}
		var w metaWire
		if len(meta) == 0 || json.Unmarshal(meta, &outer) != nil ||
			!isObject(outer.UI) || json.Unmarshal(outer.UI, &w) != nil {
			continue
		}
		if isObject(w.CSP) {
			var c CSP
			if json.Unmarshal(w.CSP, &c) == nil {
				m.CSP = c
			}
		}
		if isObject(w.Permissions) {
			m.Permissions = decodePermissions(w.Permissions)
		}
		var domain string
		if len(w.Domain) > 0 && json.Unmarshal(w.Domain, &domain) == nil {
			m.Domain = domain
		}
		var border bool
		if len(w.PrefersBorder) > 0 && json.Unmarshal(w.PrefersBorder, &border) == nil {
			m.PrefersBorder = &border
		}
	}
	return m
}

// decodePermissions takes a permission as asked for when its member is an
// object, as the extension writes it ({"camera": {}}).
func decodePermissions(raw json.RawMessage) Permissions {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return Permissions{}
	}
	return Permissions{
		Camera:         isObject(m["camera"]),
		Microphone:     isObject(m["microphone"]),
		Geolocation:    isObject(m["geolocation"]),
		ClipboardWrite: isObject(m["clipboardWrite"]),
	}
}

// Allow is the Permissions Policy for the interface's iframe allow
// attribute: the features asked for, separated by "; ".
func (p Permissions) Allow() string {
	var out []string
	for _, f := range []struct {
		on   bool
		name string
	}{{p.Camera, "camera"}, {p.Microphone, "microphone"}, {p.Geolocation, "geolocation"}, {p.ClipboardWrite, "clipboard-write"}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return strings.Join(out, "; ")
}

// Read reads the interface at uri (a ui:// URI, see [ToolUIOf]) with
// resources/read and checks it: the contents for uri (the first, if none
// names it) must have the MIME type text/html;profile=mcp-app and hold at most
// 16 MiB of HTML, as text or base64 blob. listed is the
// resource's _meta from resources/list, if the host has it (nil
// otherwise): its _meta.ui fills in what the read's leaves out. A URI or
// contents that are not an interface are an error matching [ErrNotUI].
func Read(ctx context.Context, s *mcpclient.Session, uri string, listed json.RawMessage) (*Resource, error) {
	if !isURI(uri) {
		return nil, fmt.Errorf("%w: %q is not a ui:// URI", ErrNotUI, uri)
	}
	res, err := s.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	return fromContents(uri, res.Contents, listed)
}

// fromContents makes the interface at uri from a resources/read result's
// contents, with the checks [Read] describes.
func fromContents(uri string, contents []mcpclient.ResourceContents, listed json.RawMessage) (*Resource, error) {
	quoted := safe.Line(uri, 200) // the server's (a tool's _meta names it), as errors quote it
	if len(contents) == 0 {
		return nil, fmt.Errorf("%w: %s: the read returned no contents", ErrNotUI, quoted)
	}
	c := contents[0]
	for _, cc := range contents {
		if cc.URI == uri {
			c = cc
			break
		}
	}
	if !isMimeType(c.MimeType) {
		return nil, fmt.Errorf("%w: %s: MIME type %q, not %s", ErrNotUI, quoted, c.MimeType, mcpext.UIMimeType)
	}
	html := c.Text
	if c.IsBlob {
		if base64.StdEncoding.DecodedLen(len(c.Blob)) > maxSize {
			return nil, fmt.Errorf("%w: %s: larger than %d bytes", ErrNotUI, quoted, maxSize)
		}
		b, err := base64.StdEncoding.DecodeString(c.Blob)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: blob: %w", ErrNotUI, quoted, err)
		}
		html = string(b)
	}
	if len(html) > maxSize {
		return nil, fmt.Errorf("%w: %s: larger than %d bytes", ErrNotUI, quoted, maxSize)
	}
	return &Resource{URI: uri, MimeType: c.MimeType, HTML: html, Meta: decodeMeta(listed, c.Meta)}, nil
}
