package webui

import (
	"embed"
	"net/http"
	"path"
	"strings"
)

//go:embed assets
var assets embed.FS

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
}

func serveAsset(w http.ResponseWriter, name string) {
	b, err := assets.ReadFile(name)
	if err != nil {
		http.NotFound(w, nil)
		return
	}
	w.Header().Set("Content-Type", contentTypes[path.Ext(name)])
	w.Write(b)
}

// pagePolicy is the host page's Content-Security-Policy: its own script
// and style only, its API, images and audio of results as data: URLs, and
// frames from the sandbox origin alone.
func (s *Server) pagePolicy() string {
	return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src data:; " +
		"connect-src 'self'; frame-src " + s.SandboxOrigin() + "; base-uri 'none'; form-action 'none'; " +
		"frame-ancestors 'none'; object-src 'none'"
}

func (s *Server) pageHandler() http.Handler {
	api := http.StripPrefix("/api", s.apiMux())
	mux := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasPrefix(p, "/api/") {
			api.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Security-Policy", s.pagePolicy())
		switch p {
		case "/", "/index.html":
			serveAsset(w, "assets/index.html")
		case "/app.js", "/host.js", "/form.js", "/view.js", "/template.js", "/call.js", "/roots.js", "/inbox.js", "/auth.js", "/style.css":
			serveAsset(w, "assets"+p)
		default:
			http.NotFound(w, r)
		}
	})
	return guard(s.host, "t", s.token, "http://"+s.host, mux)
}
