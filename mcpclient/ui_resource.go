package mcpclient

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MaxUISize caps the HTML of one interface, in bytes: a larger one is
// refused rather than handed to a browser.
const MaxUISize = 16 << 20

// ErrNotUI is returned by [Session.ReadUI] for a URI that is not ui://
// and for contents whose MIME type is not [UIMimeType]: the extension
// defines no other kind of interface, and a host must not render one.
var ErrNotUI = errors.New("mcpclient: not an MCP App interface")

// UIResource is an MCP App's interface as [Session.ReadUI] read it: the
// HTML to render and the metadata that says how to sandbox it. Everything
// in it comes from the server: the HTML belongs in a sandboxed frame on
// an origin of its own, never in the host's page.
type UIResource struct {
	URI      string
	MimeType string
	HTML     string
	Meta     UIMeta
}

// UIMeta is a ui:// resource's _meta.ui: what the interface may reach and
// how it would like to be shown.
type UIMeta struct {
	CSP         UICSP
	Permissions UIPermissions
	// Domain is the dedicated sandbox origin the server asks for; its
	// format is the host's to define, and a host may ignore it.
	Domain string
	// PrefersBorder is the server's wish for a visible border and
	// background; nil leaves it to the host.
	PrefersBorder *bool
}

// UICSP lists the origins an interface may reach, by kind. An empty list
// means none: a host builds the Content-Security-Policy from these and
// allows nothing they do not name ([UICSP.Policy]).
type UICSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// UIPermissions are the browser features an interface asks for. A host
// may grant them (an iframe's allow attribute, [UIPermissions.Allow]).
type UIPermissions struct {
	Camera         bool
	Microphone     bool
	Geolocation    bool
	ClipboardWrite bool
}

// uiMetaWire is _meta.ui on the wire. Fields are raw so that a field the
// read sends can be told from one it leaves out: the read's wins.
type uiMetaWire struct {
	CSP           json.RawMessage `json:"csp"`
	Permissions   json.RawMessage `json:"permissions"`
	Domain        json.RawMessage `json:"domain"`
	PrefersBorder json.RawMessage `json:"prefersBorder"`
}

// DecodeUIMeta decodes the _meta.ui of a ui:// resource from the listing
// (listed, a resource's Meta) and from the read (read, the contents'
// Meta). A field the read sets wins over the listing's; a field neither
// sets, or that does not decode, is left zero.
func DecodeUIMeta(listed, read json.RawMessage) UIMeta {
	var m UIMeta
	for _, meta := range []json.RawMessage{listed, read} {
		var outer struct {
			UI json.RawMessage `json:"ui"`
		}
		var w uiMetaWire
		if len(meta) == 0 || json.Unmarshal(meta, &outer) != nil ||
			!isObject(outer.UI) || json.Unmarshal(outer.UI, &w) != nil {
			continue
		}
		if isObject(w.CSP) {
			var c UICSP
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
func decodePermissions(raw json.RawMessage) UIPermissions {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return UIPermissions{}
	}
	return UIPermissions{
		Camera:         isObject(m["camera"]),
		Microphone:     isObject(m["microphone"]),
		Geolocation:    isObject(m["geolocation"]),
		ClipboardWrite: isObject(m["clipboardWrite"]),
	}
}

// Allow is the Permissions Policy for the interface's iframe allow
// attribute: the features asked for, separated by "; ".
func (p UIPermissions) Allow() string {
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

// IsUIMimeType reports whether mt is text/html with the mcp-app profile,
// however the server spelled it: any case for the type and the parameter's
// name, spaces around the semicolons, a quoted value, other parameters.
// (A media type scanner of its own, not package mime's, which would link
// MIME tables into every program that links mcpclient; RFC 2231 encoded
// values are not taken.)
func IsUIMimeType(mt string) bool {
	typ, rest, _ := strings.Cut(mt, ";")
	if !strings.EqualFold(strings.TrimSpace(typ), "text/html") {
		return false
	}
	profile := false
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		name, value, more, ok := mediaParam(rest)
		if !ok {
			return false // malformed, as package mime would say
		}
		if strings.EqualFold(name, "profile") {
			if profile || value != "mcp-app" {
				return false // a second profile, or another one
			}
			profile = true
		}
		rest = more
	}
	return profile
}

// mediaParam reads the parameter at the start of s, `name=value` or
// `name="quoted value"`, and returns what follows its ';'.
func mediaParam(s string) (name, value, rest string, ok bool) {
	name, s, ok = strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t\"") {
		return "", "", "", false
	}
	s = strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(s, `"`) {
		value, rest, _ = strings.Cut(s, ";")
		return name, strings.TrimSpace(value), rest, true
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '"':
			after := strings.TrimSpace(s[i+1:])
			if after != "" && after[0] != ';' {
				return "", "", "", false
			}
			return name, b.String(), strings.TrimPrefix(after, ";"), true
		default:
			b.WriteByte(c)
		}
	}
	return "", "", "", false // the quote never closed
}

// ReadUI reads the interface at uri (a ui:// URI, see [Tool.UI]) with
// resources/read and checks it: the contents for uri (the first, if none
// names it) must have the MIME type [UIMimeType] and hold at most
// [MaxUISize] bytes of HTML, as text or base64 blob. listed is the
// resource's _meta from resources/list, if the host has it (nil
// otherwise): its _meta.ui fills in what the read's leaves out. A URI or
// contents that are not an interface are an error matching [ErrNotUI].
func (s *Session) ReadUI(ctx context.Context, uri string, listed json.RawMessage) (*UIResource, error) {
	if !IsUIURI(uri) {
		return nil, fmt.Errorf("%w: %q is not a ui:// URI", ErrNotUI, uri)
	}
	res, err := s.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	return UIFromContents(uri, res.Contents, listed)
}

// UIFromContents makes the interface at uri from a resources/read result's
// contents, with the checks [Session.ReadUI] describes.
func UIFromContents(uri string, contents []ResourceContents, listed json.RawMessage) (*UIResource, error) {
	if len(contents) == 0 {
		return nil, fmt.Errorf("%w: %s: the read returned no contents", ErrNotUI, uri)
	}
	c := contents[0]
	for _, cc := range contents {
		if cc.URI == uri {
			c = cc
			break
		}
	}
	if !IsUIMimeType(c.MimeType) {
		return nil, fmt.Errorf("%w: %s: MIME type %q, not %s", ErrNotUI, uri, c.MimeType, UIMimeType)
	}
	html := c.Text
	if c.IsBlob {
		if base64.StdEncoding.DecodedLen(len(c.Blob)) > MaxUISize {
			return nil, fmt.Errorf("%w: %s: larger than %d bytes", ErrNotUI, uri, MaxUISize)
		}
		b, err := base64.StdEncoding.DecodeString(c.Blob)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: blob: %w", ErrNotUI, uri, err)
		}
		html = string(b)
	}
	if len(html) > MaxUISize {
		return nil, fmt.Errorf("%w: %s: larger than %d bytes", ErrNotUI, uri, MaxUISize)
	}
	return &UIResource{URI: uri, MimeType: c.MimeType, HTML: html, Meta: DecodeUIMeta(listed, c.Meta)}, nil
}
