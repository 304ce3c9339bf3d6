package webui

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/apps"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/skills"
)

// maxBody caps what the page may post: tool arguments, a URI.
const maxBody = 1 << 20

// The page's API: JSON in, JSON out, under /t/<token>/api/. Everything a
// server sent goes out as JSON strings for the page to show as text.

func (s *Server) apiMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /config", s.apiConfig)
	mux.HandleFunc("GET /servers", s.apiServers)
	mux.HandleFunc("GET /tools", s.apiTools)
	mux.HandleFunc("GET /resources", s.apiResources)
	mux.HandleFunc("GET /prompts", s.apiPrompts)
	mux.HandleFunc("GET /skills", s.apiSkills)
	mux.HandleFunc("GET /ui", s.apiUI)
	mux.HandleFunc("GET /trace", s.apiTrace)
	mux.HandleFunc("POST /call", s.apiCall)
	mux.HandleFunc("POST /read", s.apiRead)
	mux.HandleFunc("POST /prompt", s.apiPrompt)
	mux.HandleFunc("GET /progress", s.apiProgress)
	mux.HandleFunc("POST /cancel", s.apiCancel)
	mux.HandleFunc("GET /events", s.apiEvents)
	mux.HandleFunc("POST /answer", s.apiAnswer)
	mux.HandleFunc("POST /loglevel", s.apiLogLevel)
	mux.HandleFunc("POST /ping", s.apiPing)
	mux.HandleFunc("POST /servers", s.apiAddServer)
	mux.HandleFunc("POST /login", s.apiLogin)
	mux.HandleFunc("GET /login", s.apiLoginState)
	mux.HandleFunc("POST /logout", s.apiLogout)
	mux.HandleFunc("GET /roots", s.apiRoots)
	mux.HandleFunc("POST /roots", s.apiSetRoots)
	return mux
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeErr(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, map[string]string{"error": err.Error()})
}

// readBody decodes a posted JSON body, which must say it is JSON: a form
// another site posts cannot.
func readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if r.Header.Get("Content-Type") != "application/json" {
		writeErr(w, http.StatusUnsupportedMediaType, errors.New("want application/json"))
		return false
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(v); err != nil {
		writeErr(w, http.StatusBadRequest, err)
		return false
	}
	return true
}

func (s *Server) apiConfig(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"yes":           s.opts.Yes,
		"sandboxOrigin": s.SandboxOrigin(),
		"sandboxURL":    s.SandboxOrigin() + "/s/" + s.stoken + "/sandbox.html",
	})
}

type serverJSON struct {
	Name         string `json:"name"`
	State        string `json:"state"`
	Error        string `json:"error,omitempty"`
	Transport    string `json:"transport,omitempty"`
	Protocol     string `json:"protocol,omitempty"`
	Title        string `json:"title,omitempty"`
	Instructions string `json:"instructions,omitempty"`
	Tools        int    `json:"tools"`
	Prompts      int    `json:"prompts"`
	Resources    int    `json:"resources"`
	// AuthServer is where a server that needs authorization sends the
	// person; CanLogin says the page can log in to it (Options.Auth), and
	// CanLogout that the host holds tokens of it the page can forget.
	AuthServer string      `json:"authServer,omitempty"`
	CanLogin   bool        `json:"canLogin,omitempty"`
	CanLogout  bool        `json:"canLogout,omitempty"`
	Login      *loginState `json:"login,omitempty"` // the page's last login of it
}

// serverInstructions bounds the instructions shown for a server: they
// are the server's text, kept by the session up to the message limit,
// and the page polls the server list.
const serverInstructions = 64 << 10

func (s *Server) apiServers(w http.ResponseWriter, r *http.Request) {
	s.opts.Registry.Tools(r.Context()) // the counts come from a listing
	out := []serverJSON{}
	for _, st := range s.opts.Registry.Servers() {
		j := serverJSON{Name: st.Name, State: st.State, Transport: st.Transport, Protocol: st.ProtocolVersion,
			Title: cut(st.Title), Instructions: cutTo(st.Instructions, serverInstructions), Tools: st.Tools, Prompts: st.Prompts, Resources: st.Resources}
		if st.Err != nil {
			j.Error = st.Err.Error()
		}
		if st.State == toolreg.StateNeedsAuth {
			j.AuthServer, j.CanLogin = st.AuthServer, s.opts.Auth != nil
		} else if s.opts.Auth != nil {
			j.CanLogout = s.opts.Auth.LoggedIn(r.Context(), st.Name)
		}
		if l, ok := s.logins.state(st.Name); ok {
			j.Login = &l
		}
		out = append(out, j)
	}
	writeJSON(w, http.StatusOK, out)
}

type toolJSON struct {
	Name        string                     `json:"name"`
	Server      string                     `json:"server"`
	Tool        string                     `json:"tool"`
	Title       string                     `json:"title,omitempty"`
	Description string                     `json:"description,omitempty"`
	InputSchema json.RawMessage            `json:"inputSchema,omitempty"`
	Annotations *mcpclient.ToolAnnotations `json:"annotations,omitempty"`
	ReadOnly    bool                       `json:"readOnly"`     // marked so by a server whose annotations the host trusts
	UI          string                     `json:"ui,omitempty"` // the interface's ui:// URI
	Model       bool                       `json:"model"`        // visible to the model
	App         bool                       `json:"app"`          // callable by its app
}

func (s *Server) toolOut(t toolreg.Tool) toolJSON {
	ui := apps.ToolUIOf(t.Def)
	j := toolJSON{Name: t.Name, Server: t.Server, Tool: t.Def.Name, Title: t.Def.Title, Description: t.Def.Description,
		Annotations: t.Def.Annotations, ReadOnly: s.readOnly(t), UI: ui.ResourceURI, Model: ui.ModelVisible(), App: ui.AppVisible()}
	if json.Valid(t.Def.InputSchema) {
		j.InputSchema = t.Def.InputSchema
	}
	return j
}

// readOnly reports whether t's server marks it read-only and not
// destructive, and the host believes that server's annotations.
func (s *Server) readOnly(t toolreg.Tool) bool {
	a := t.Def.Annotations
	marked := a != nil && a.ReadOnlyHint != nil && *a.ReadOnlyHint && (a.DestructiveHint == nil || !*a.DestructiveHint)
	return marked && s.opts.TrustAnnotations != nil && s.opts.TrustAnnotations(t.Server)
}

func (s *Server) apiTools(w http.ResponseWriter, r *http.Request) {
	tools, err := s.opts.Registry.Tools(r.Context())
	if err != nil {
		writeErr(w, http.StatusBadGateway, err)
		return
	}
	out := []toolJSON{}
	for _, t := range tools {
		out = append(out, s.toolOut(t))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) apiResources(w http.ResponseWriter, r *http.Request) {
	res, err := s.opts.Registry.Resources(r.Context())
	if err != nil {
		writeErr(w, http.StatusBadGateway, err)
		return
	}
	tpl, err := s.opts.Registry.ResourceTemplates(r.Context())
	if err != nil {
		writeErr(w, http.StatusBadGateway, err)
		return
	}
	out := map[string][]any{"resources": {}, "templates": {}}
	for _, x := range res {
		out["resources"] = append(out["resources"], map[string]any{"server": x.Server, "resource": x.Resource})
	}
	for _, x := range tpl {
		out["templates"] = append(out["templates"], map[string]any{"server": x.Server, "template": x.Template})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) apiPrompts(w http.ResponseWriter, r *http.Request) {
	ps, err := s.opts.Registry.Prompts(r.Context())
	if err != nil {
		writeErr(w, http.StatusBadGateway, err)
		return
	}
	out := []any{}
	for _, p := range ps {
		out = append(out, map[string]any{"name": p.Name, "server": p.Server, "prompt": p.Def})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) apiSkills(w http.ResponseWriter, r *http.Request) {
	sk, err := skills.List(r.Context(), s.opts.Registry)
	if err != nil {
		writeErr(w, http.StatusBadGateway, err)
		return
	}
	out := []any{}
	for _, k := range sk {
		out = append(out, map[string]any{"name": k.Name, "server": k.Server, "skill": k.Def.Name,
			"description": k.Def.Description, "uri": k.Def.URI})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) apiTrace(w http.ResponseWriter, r *http.Request) {
	since, _ := strconv.ParseInt(r.URL.Query().Get("since"), 10, 64)
	writeJSON(w, http.StatusOK, s.opts.Trace.Since(since, ""))
}

func (s *Server) apiRead(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	if !readBody(w, r, &req) {
		return
	}
	res, err := s.opts.Registry.ReadResource(r.Context(), req.Server, req.URI)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) apiPrompt(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string            `json:"name"`
		Args map[string]string `json:"args"`
	}
	if !readBody(w, r, &req) {
		return
	}
	res, err := s.opts.Registry.GetPrompt(r.Context(), req.Name, req.Args)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, res)
}
