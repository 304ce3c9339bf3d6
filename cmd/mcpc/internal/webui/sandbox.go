package webui

import (
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"

	"github.com/plainmcp/plainmcp/mcpclient/apps"
)

// The sandbox origin serves one page, the proxy between the host page and
// an app, as the extension asks of web hosts: on an origin other than the
// page's, it takes the app's HTML from the page
// (ui/notifications/sandbox-resource-ready) and runs it in an inner
// iframe (srcdoc, sandboxed without allow-same-origin, so on an opaque
// origin of its own) and passes messages between the two. The proxy page
// is served with the Content-Security-Policy built from the app's
// _meta.ui.csp, which the srcdoc frame inherits, and may be framed by the
// host page alone.

var sandboxPage = template.Must(template.New("sandbox").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="host-origin" content="{{.HostOrigin}}">
<title>sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
<script src="sandbox.js" defer></script></head><body></body></html>
`))

func (s *Server) sandboxHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sandbox.html", func(w http.ResponseWriter, r *http.Request) {
		csp := decodeCSPParam(r.URL.Query().Get("csp"))
		w.Header().Set("Content-Security-Policy", sandboxPolicy(csp, "http://"+s.host))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		sandboxPage.Execute(w, struct{ HostOrigin string }{"http://" + s.host})
	})
	mux.HandleFunc("GET /sandbox.js", func(w http.ResponseWriter, r *http.Request) {
		serveAsset(w, "assets/sandbox.js")
	})
	return guard(s.shost, "s", s.stoken, "", mux)
}

// sandboxPolicy is the app's policy (apps.CSP.Policy) with
// frame-ancestors limited to the host page.
func sandboxPolicy(csp apps.CSP, hostOrigin string) string {
	return csp.Policy() + "; frame-ancestors " + hostOrigin
}

// cleanCSP keeps the sources Policy would keep, so that what the page
// tells the app (hostCapabilities.sandbox.csp) is what it runs under.
func cleanCSP(c apps.CSP) apps.CSP {
	keep := func(list []string) []string {
		var out []string
		for _, src := range list {
			if (apps.CSP{ConnectDomains: []string{src}}).Invalid() == nil {
				out = append(out, src)
			}
		}
		return out
	}
	return apps.CSP{ConnectDomains: keep(c.ConnectDomains), ResourceDomains: keep(c.ResourceDomains),
		FrameDomains: keep(c.FrameDomains), BaseURIDomains: keep(c.BaseURIDomains)}
}

func (s *Server) sandboxURL(csp apps.CSP) string {
	b, _ := json.Marshal(csp)
	return s.SandboxOrigin() + "/s/" + s.stoken + "/sandbox.html?csp=" + base64.RawURLEncoding.EncodeToString(b)
}

// decodeCSPParam reads the csp query parameter; anything unreadable is
// the restrictive default.
func decodeCSPParam(p string) apps.CSP {
	var c apps.CSP
	b, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil || json.Unmarshal(b, &c) != nil {
		return apps.CSP{}
	}
	return c
}
