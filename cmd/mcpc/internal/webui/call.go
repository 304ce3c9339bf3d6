package webui

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient/apps"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/ui"
)

// A tool's interface and the calls of the page's API: the person's, a
// link's (?call=) and an app's, the last two only with consent, --yes or
// a read-only tool of a server whose annotations the host trusts, and an
// app's only to its own server's tools visible to apps.

// uiJSON is a tool's interface as the page hands it to the sandbox.
type uiJSON struct {
	URI           string         `json:"uri"`
	Server        string         `json:"server"`
	HTML          string         `json:"html"`
	CSP           apps.CSP       `json:"csp"`
	Policy        string         `json:"policy"`
	Refused       []string       `json:"refused,omitempty"` // CSP sources left out
	Allow         string         `json:"allow,omitempty"`
	Permissions   map[string]any `json:"permissions"`
	PrefersBorder *bool          `json:"prefersBorder,omitempty"`
	Tool          toolJSON       `json:"tool"`
	SandboxURL    string         `json:"sandboxURL"`
}

func (s *Server) apiUI(w http.ResponseWriter, r *http.Request) {
	it, err := ui.Read(r.Context(), s.opts.Registry, r.URL.Query().Get("name"))
	if err != nil {
		code := http.StatusBadGateway
		if errors.Is(err, toolreg.ErrUnknownTool) || errors.Is(err, ui.ErrNoInterface) {
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
		PrefersBorder: m.PrefersBorder, Tool: s.toolOut(it.Tool), SandboxURL: s.sandboxURL(csp)})
}

type callRequest struct {
	Name    string          `json:"name"`   // the exposed name (person, link)
	From    string          `json:"from"`   // "person", "app" or "link"
	Server  string          `json:"server"` // for an app: its server
	Tool    string          `json:"tool"`   // for an app: the server's name for the tool
	Args    json.RawMessage `json:"args"`
	Consent bool            `json:"consent"` // the person agreed to a call they did not start
	ID      string          `json:"id"`      // the page's name for the call, for its progress and Cancel
}

func (s *Server) apiCall(w http.ResponseWriter, r *http.Request) {
	var req callRequest
	if !readBody(w, r, &req) {
		return
	}
	if len(req.Args) == 0 || string(req.Args) == "null" {
		req.Args = json.RawMessage("{}")
	}
	ctx := r.Context()
	var run *running
	if req.ID != "" {
		c, rn, done, err := s.running.start(ctx, req.ID)
		if err != nil {
			writeErr(w, http.StatusConflict, err)
			return
		}
		defer done()
		ctx, run = c, rn
	}
	before := s.opts.Trace.Last()
	start := time.Now()
	res, code, err := s.call(ctx, r, &req)
	if code != http.StatusOK {
		writeErr(w, code, err)
		return
	}
	out := map[string]any{"durationMs": time.Since(start).Milliseconds()}
	if err != nil {
		out["error"] = err.Error()
		if up := s.stepUp(r, &req, err); up != nil {
			out["stepUp"] = up
		}
		if run != nil {
			run.mu.Lock()
			out["cancelled"] = run.cancelled
			run.mu.Unlock()
		}
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

// call makes the call req asks for, if it may run: a status other than
// 200 refuses it.
func (s *Server) call(ctx context.Context, r *http.Request, req *callRequest) (*toolreg.Result, int, error) {
	reg := s.opts.Registry
	switch req.From {
	case "person", "link":
		if req.From == "link" && !s.allowed(r, req.Name, req.Consent) {
			return nil, http.StatusForbidden, errNoConsent
		}
		res, err := reg.Call(ctx, req.Name, req.Args)
		return res, http.StatusOK, err
	case "app":
		if name, ok := s.exposed(r, req.Server, req.Tool); ok && !s.allowed(r, name, req.Consent) {
			return nil, http.StatusForbidden, errNoConsent
		}
		res, err := ui.CallForApp(ctx, reg, req.Server, req.Tool, req.Args)
		return res, http.StatusOK, err
	}
	return nil, http.StatusBadRequest, errors.New(`"from" is person, app or link`)
}

var errNoConsent = errors.New("the person has not agreed to this call")

// stepUpJSON offers a login for more scope after a call its server
// refused for want of it (403 insufficient_scope): the page's "Log in
// again for more access". The person calls again once logged in; a call
// is never repeated on its own, for it may have effects.
type stepUpJSON struct {
	Server string `json:"server"`
	Scope  string `json:"scope"` // what the server asked for, cut
}

// stepUp is the login for more scope that may answer err, req's failure,
// or nil.
func (s *Server) stepUp(r *http.Request, req *callRequest, err error) *stepUpJSON {
	if s.opts.Auth == nil {
		return nil
	}
	server := req.Server
	if req.From != "app" {
		server = s.serverOf(r, req.Name)
	}
	if server == "" {
		return nil
	}
	scope, ok := s.opts.Auth.StepUpScope(server, err)
	if !ok {
		return nil
	}
	return &stepUpJSON{Server: server, Scope: cut(scope)}
}

// serverOf is the server of the tool exposed as name, or "".
func (s *Server) serverOf(r *http.Request, name string) string {
	tools, _ := s.opts.Registry.Tools(r.Context())
	for _, t := range tools {
		if t.Name == name {
			return t.Server
		}
	}
	return ""
}

// allowed reports whether a call the person did not start may run: they
// agreed, --yes was given, or the tool's server, whose annotations the
// host trusts, marks it read-only.
func (s *Server) allowed(r *http.Request, name string, consent bool) bool {
	if consent || s.opts.Yes {
		return true
	}
	tools, _ := s.opts.Registry.Tools(r.Context())
	for _, t := range tools {
		if t.Name == name {
			return s.readOnly(t)
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
