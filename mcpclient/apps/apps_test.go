package apps

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// The tests in this file follow the MUSTs of the MCP Apps specification
// (SEP-1865, 2026-01-26) that concern a client or host; each names the
// requirement it checks.

// A tool's _meta.ui: resourceUri (or the deprecated flat ui/resourceUri),
// and visibility, which defaults to ["model", "app"].
func TestToolUI(t *testing.T) {
	for _, tc := range []struct {
		name       string
		meta       string
		uri        string
		model, app bool
	}{
		{"no meta", ``, "", true, true},
		{"nested", `{"ui":{"resourceUri":"ui://w/dash"}}`, "ui://w/dash", true, true},
		{"flat", `{"ui/resourceUri":"ui://w/dash"}`, "ui://w/dash", true, true},
		{"nested wins", `{"ui":{"resourceUri":"ui://a"},"ui/resourceUri":"ui://b"}`, "ui://a", true, true},
		{"not ui scheme", `{"ui":{"resourceUri":"https://evil.example/x"}}`, "", true, true},
		{"bare scheme", `{"ui":{"resourceUri":"ui://"}}`, "", true, true},
		{"uri not a string", `{"ui":{"resourceUri":7},"ui/resourceUri":"ui://flat"}`, "ui://flat", true, true},
		{"app only", `{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`, "ui://a", false, true},
		{"model only", `{"ui":{"visibility":["model"]}}`, "", true, false},
		{"both", `{"ui":{"visibility":["model","app"]}}`, "", true, true},
		{"null visibility", `{"ui":{"visibility":null}}`, "", true, true},
		{"empty visibility", `{"ui":{"visibility":[]}}`, "", false, false},
		{"unknown audience", `{"ui":{"visibility":["robots"]}}`, "", false, false},
		{"bad visibility", `{"ui":{"visibility":"model"}}`, "", false, false},
		{"ui not an object", `{"ui":"ui://x"}`, "", true, true},
		{"meta not an object", `[1,2]`, "", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := ToolUIOf(&mcpclient.Tool{Name: "t", Meta: json.RawMessage(tc.meta)})
			if u.ResourceURI != tc.uri || u.ModelVisible() != tc.model || u.AppVisible() != tc.app {
				t.Errorf("got uri %q model %v app %v, want %q %v %v", u.ResourceURI, u.ModelVisible(), u.AppVisible(), tc.uri, tc.model, tc.app)
			}
		})
	}
}

// Host MUST use resources/read to fetch the referenced resource; its
// mimeType MUST be text/html;profile=mcp-app; the content comes as text
// or as a base64 blob.
func TestReadUI(t *testing.T) {
	const page = "<!DOCTYPE html><html><body>hi</body></html>"
	blob := base64.StdEncoding.EncodeToString([]byte(page))
	for _, tc := range []struct {
		name     string
		contents string
		wantErr  error
	}{
		{"text", `[{"uri":"ui://a/app","mimeType":"text/html;profile=mcp-app","text":` + quote(page) + `}]`, nil},
		{"blob", `[{"uri":"ui://a/app","mimeType":"text/html;profile=mcp-app","blob":"` + blob + `"}]`, nil},
		{"spaced and quoted profile", `[{"uri":"ui://a/app","mimeType":"text/html; profile=\"mcp-app\"","text":` + quote(page) + `}]`, nil},
		{"the item for the uri", `[{"uri":"ui://a/other","mimeType":"text/plain","text":"x"},{"uri":"ui://a/app","mimeType":"text/html;profile=mcp-app","text":` + quote(page) + `}]`, nil},
		{"plain html", `[{"uri":"ui://a/app","mimeType":"text/html","text":"x"}]`, ErrNotUI},
		{"other profile", `[{"uri":"ui://a/app","mimeType":"text/html;profile=other","text":"x"}]`, ErrNotUI},
		{"no mime type", `[{"uri":"ui://a/app","text":"x"}]`, ErrNotUI},
		{"no contents", `[]`, ErrNotUI},
		{"bad blob", `[{"uri":"ui://a/app","mimeType":"text/html;profile=mcp-app","blob":"%%%"}]`, ErrNotUI},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, s := readServer(t, tc.contents)
			got, err := Read(context.Background(), s, "ui://a/app", nil)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if got := asked(srv); len(got) != 1 || got[0] != "ui://a/app" {
				t.Errorf("resources/read asked for %q", got)
			}
			if err == nil && got.HTML != page {
				t.Errorf("HTML = %q", got.HTML)
			}
		})
	}
}

func TestReadUIRefusesOtherSchemes(t *testing.T) {
	srv, s := readServer(t, `[]`)
	if _, err := Read(context.Background(), s, "https://example.com/app.html", nil); !errors.Is(err, ErrNotUI) {
		t.Errorf("err = %v, want ErrNotUI", err)
	}
	if got := asked(srv); len(got) != 0 {
		t.Errorf("a non-ui:// URI was read: %q", got)
	}
}

func TestReadUISizeCap(t *testing.T) {
	big := strings.Repeat("x", maxSize+1)
	for _, c := range []mcpclient.ResourceContents{
		{URI: "ui://a/app", MimeType: mcpext.UIMimeType, Text: big},
		{URI: "ui://a/app", MimeType: mcpext.UIMimeType, Blob: base64.StdEncoding.EncodeToString([]byte(big)), IsBlob: true},
	} {
		if _, err := fromContents("ui://a/app", []mcpclient.ResourceContents{c}, nil); !errors.Is(err, ErrNotUI) {
			t.Errorf("blob %v: err = %v, want ErrNotUI for an interface over the cap", c.IsBlob, err)
		}
	}
}

// _meta.ui of a resource comes from the listing and from the read; the
// read's fields win.
func TestDecodeMeta(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name         string
		listed, read string
		want         Meta
	}{
		{"none", ``, ``, Meta{}},
		{"listing only", `{"ui":{"csp":{"connectDomains":["https://api.example.com"]},"prefersBorder":true}}`, ``,
			Meta{CSP: CSP{ConnectDomains: []string{"https://api.example.com"}}, PrefersBorder: &yes}},
		{"read wins", `{"ui":{"csp":{"connectDomains":["https://a.example"]},"prefersBorder":true,"domain":"x"}}`,
			`{"ui":{"csp":{"resourceDomains":["https://cdn.example"]},"prefersBorder":false}}`,
			Meta{CSP: CSP{ResourceDomains: []string{"https://cdn.example"}}, PrefersBorder: &no, Domain: "x"}},
		{"permissions", ``, `{"ui":{"permissions":{"camera":{},"clipboardWrite":{},"microphone":true}}}`,
			Meta{Permissions: Permissions{Camera: true, ClipboardWrite: true}}},
		{"bad read keeps listing", `{"ui":{"domain":"d"}}`, `{"ui":7}`, Meta{Domain: "d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := decodeMeta(json.RawMessage(tc.listed), json.RawMessage(tc.read))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
	if got := (Permissions{Camera: true, Geolocation: true, ClipboardWrite: true}).Allow(); got != "camera; geolocation; clipboard-write" {
		t.Errorf("Allow = %q", got)
	}
}

// Host MUST construct CSP headers based on declared domains; with no
// ui.csp, the restrictive default; frame-src 'none' and base-uri 'self'
// unless declared; object-src 'none'; and MUST NOT allow undeclared
// domains.
func TestCSPPolicy(t *testing.T) {
	for _, tc := range []struct {
		name    string
		csp     CSP
		want    string
		invalid []string
	}{
		{"restrictive default", CSP{},
			"default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'", nil},
		{"every kind", CSP{
			ConnectDomains:  []string{"https://api.example.com", "wss://rt.example.com"},
			ResourceDomains: []string{"https://*.cdn.example"},
			FrameDomains:    []string{"https://www.youtube.com"},
			BaseURIDomains:  []string{"https://base.example/app/"},
		}, "default-src 'none'; script-src 'self' 'unsafe-inline' https://*.cdn.example; style-src 'self' 'unsafe-inline' https://*.cdn.example; img-src 'self' data: https://*.cdn.example; font-src 'self' https://*.cdn.example; media-src 'self' data: https://*.cdn.example; connect-src https://api.example.com wss://rt.example.com; frame-src https://www.youtube.com; object-src 'none'; base-uri https://base.example/app/", nil},
		{"loopback http", CSP{ConnectDomains: []string{"http://localhost:3001", "http://evil.example"}},
			"default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src http://localhost:3001; frame-src 'none'; object-src 'none'; base-uri 'self'",
			[]string{"http://evil.example"}},
		{"injections dropped", CSP{ConnectDomains: []string{"*", "'unsafe-eval'", "https://a.example; script-src *", "https://a.example b.example", "data:", "https://*", "javascript://x", "https://a..b", "https://a.example:99999x"}},
			"default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'",
			[]string{"*", "'unsafe-eval'", "https://a.example; script-src *", "https://a.example b.example", "data:", "https://*", "javascript://x", "https://a..b", "https://a.example:99999x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.csp.Policy(); got != tc.want {
				t.Errorf("Policy =\n%s\nwant\n%s", got, tc.want)
			}
			if d := cmp.Diff(tc.invalid, tc.csp.Invalid()); d != "" {
				t.Errorf("Invalid (-want +got)\n%s", d)
			}
		})
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// The URI a refusal names is the server's (a tool's _meta names it):
// it reaches the error escaped, on one line.
func TestRefusalQuotesTheURIPrintably(t *testing.T) {
	uri := "ui://\x1b]0;owned\a/\u202eapp\n"
	for _, contents := range [][]mcpclient.ResourceContents{
		nil,
		{{URI: uri, MimeType: "text/plain", Text: "x"}},
		{{URI: uri, MimeType: mcpext.UIMimeType, Blob: "!!", IsBlob: true}},
		{{URI: uri, MimeType: mcpext.UIMimeType, Text: strings.Repeat("x", maxSize+1)}},
	} {
		_, err := fromContents(uri, contents, nil)
		if !errors.Is(err, ErrNotUI) {
			t.Fatalf("fromContents: %v", err)
		}
		if msg := err.Error(); safe.Line(msg, 0) != msg {
			t.Errorf("the error holds characters a terminal acts on: %q", msg)
		}
	}
}
