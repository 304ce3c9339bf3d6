package webui

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
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
}

func (s *Server) apiServers(w http.ResponseWriter, r *http.Request) {
	s.opts.Registry.Tools(r.Context()) // the counts come from a listing
	out := []serverJSON{}
	for _, st := range s.opts.Registry.Servers() {
		j := serverJSON{Name: st.Name, State: st.State, Transport: st.Transport, Protocol: st.ProtocolVersion,
			Title: st.Title, Instructions: st.Instructions, Tools: st.Tools, Prompts: st.Prompts, Resources: st.Resources}
		if st.Err != nil {
			j.Error = st.Err.Error()
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
	ReadOnly    bool                       `json:"readOnly"`
	UI          string                     `json:"ui,omitempty"` // the interface's ui:// URI
	Model       bool                       `json:"model"`        // visible to the model
	App         bool                       `json:"app"`          // callable by its app
}

func toolOut(t toolreg.Tool) toolJSON {
	ui := t.Def.UI()
	j := toolJSON{Name: t.Name, Server: t.Server, Tool: t.Def.Name, Title: t.Def.Title, Description: t.Def.Description,
		Annotations: t.Def.Annotations, ReadOnly: readOnly(t.Def), UI: ui.ResourceURI, Model: ui.ModelVisible(), App: ui.AppVisible()}
	if json.Valid(t.Def.InputSchema) {
		j.InputSchema = t.Def.InputSchema
	}
	return j
}

func readOnly(d *mcpclient.Tool) bool {
	return d.Annotations != nil && d.Annotations.ReadOnlyHint != nil && *d.Annotations.ReadOnlyHint
}

func (s *Server) apiTools(w http.ResponseWriter, r *http.Request) {
	tools, err := s.opts.Registry.Tools(r.Context())
	if err != nil {
		writeErr(w, http.StatusBadGateway, err)
		return
	}
	out := []toolJSON{}
	for _, t := range tools {
		out = append(out, toolOut(t))
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
	sk, err := s.opts.Registry.Skills(r.Context())
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

// uiJSON is a tool's interface as the page hands it to the sandbox.
type uiJSON struct {
	URI           string          `json:"uri"`
	Server        string          `json:"server"`
	HTML          string          `json:"html"`
	CSP           mcpclient.UICSP `json:"csp"`
	Policy        string          `json:"policy"`
	Refused       []string        `json:"refused,omitempty"` // CSP sources left out
	Allow         string          `json:"allow,omitempty"`
	Permissions   map[string]any  `json:"permissions"`
	PrefersBorder *bool           `json:"prefersBorder,omitempty"`
	Tool          toolJSON        `json:"tool"`
	SandboxURL    string          `json:"sandboxURL"`
}

func (s *Server) apiUI(w http.ResponseWriter, r *http.Request) {
	it, err := s.opts.Registry.Interface(r.Context(), r.URL.Query().Get("name"))
	if err != nil {
		code := http.StatusBadGateway
		if errors.Is(err, toolreg.ErrUnknownTool) || errors.Is(err, toolreg.ErrNoInterface) {
			code = http.StatusNotFound
		}
		writeErr(w, code, err)
		return
	}
	m := it.UI.Meta
	csp := cleanCSP(m.CSP)
	if bad := m.CSP.Invalid(); len(bad) > 0 {
		s.log.Warn("webui: CSP sources refused", "server", it.Tool.Server, "uri", it.UI.URI, "sources", bad)
	}
	s.log.Info("webui: app CSP", "server", it.Tool.Server, "uri", it.UI.URI, "policy", csp.Policy())
	perms := map[string]any{}
	for name, on := range map[string]bool{"camera": m.Permissions.Camera, "microphone": m.Permissions.Microphone,
		"geolocation": m.Permissions.Geolocation, "clipboardWrite": m.Permissions.ClipboardWrite} {
		if on {
			perms[name] = map[string]any{}
		}
	}
	writeJSON(w, http.StatusOK, uiJSON{URI: it.UI.URI, Server: it.Tool.Server, HTML: it.UI.HTML, CSP: csp,
		Policy: csp.Policy(), Refused: m.CSP.Invalid(), Allow: m.Permissions.Allow(), Permissions: perms,
		PrefersBorder: m.PrefersBorder, Tool: toolOut(it.Tool), SandboxURL: s.sandboxURL(csp)})
}

type callRequest struct {
	Name    string          `json:"name"`   // the exposed name (person, link)
	From    string          `json:"from"`   // "person", "app" or "link"
	Server  string          `json:"server"` // for an app: its server
	Tool    string          `json:"tool"`   // for an app: the server's name for the tool
	Args    json.RawMessage `json:"args"`
	Consent bool            `json:"consent"` // the person agreed to a call they did not start
}

func (s *Server) apiCall(w http.ResponseWriter, r *http.Request) {
	var req callRequest
	if !readBody(w, r, &req) {
		return
	}
	args := req.Args
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	ctx := r.Context()
	reg := s.opts.Registry
	before := s.opts.Trace.Last()
	start := time.Now()
	var res *toolreg.Result
	var err error
	switch req.From {
	case "person", "link":
		if req.From == "link" && !s.allowed(r, req.Name, req.Consent) {
			writeErr(w, http.StatusForbidden, errNoConsent)
			return
		}
		res, err = reg.Call(ctx, req.Name, args)
	case "app":
		if name, ok := s.exposed(r, req.Server, req.Tool); ok && !s.allowed(r, name, req.Consent) {
			writeErr(w, http.StatusForbidden, errNoConsent)
			return
		}
		res, err = reg.CallForApp(ctx, req.Server, req.Tool, args)
	default:
		writeErr(w, http.StatusBadRequest, errors.New(`"from" is person, app or link`))
		return
	}
	out := map[string]any{"durationMs": time.Since(start).Milliseconds()}
	if err != nil {
		out["error"] = err.Error()
	} else {
		out["server"], out["tool"], out["content"], out["isError"] = res.Server, res.Tool, res.Content, res.IsError
		if json.Valid(res.Structured) {
			out["structuredContent"] = res.Structured
		}
		if json.Valid(res.Meta) {
			out["_meta"] = res.Meta
		}
		out["frames"] = s.opts.Trace.Since(before, res.Server)
	}
	writeJSON(w, http.StatusOK, out)
}

var errNoConsent = errors.New("the person has not agreed to this call")

// allowed reports whether a call the person did not start may run: they
// agreed, --yes was given, or the tool says it only reads.
func (s *Server) allowed(r *http.Request, name string, consent bool) bool {
	if consent || s.opts.Yes {
		return true
	}
	tools, _ := s.opts.Registry.Tools(r.Context())
	for _, t := range tools {
		if t.Name == name {
			return readOnly(t.Def)
		}
	}
	return false
}

// exposed finds the exposed name of server's tool.
func (s *Server) exposed(r *http.Request, server, tool string) (string, bool) {
	tools, _ := s.opts.Registry.Tools(r.Context())
	for _, t := range tools {
		if t.Server == server && t.Def.Name == tool {
			return t.Name, true
		}
	}
	return "", false
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
