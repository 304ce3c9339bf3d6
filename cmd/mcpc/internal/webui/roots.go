package webui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Roots: the directories and files the person lets servers see, edited
// on the page. Each server asks for them (roots/list); a change is told
// to every connected server (notifications/roots/list_changed).

// Bounds of the roots list: how many, and the bytes of a URI or a name.
const (
	maxRoots    = 64
	maxRootText = 4096
)

// SetRoots sets the roots every hooked session answers roots/list with.
func (in *Inbox) SetRoots(roots []mcpclient.Root) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.roots = append([]mcpclient.Root{}, roots...)
}

// Roots returns the roots.
func (in *Inbox) Roots() []mcpclient.Root {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]mcpclient.Root{}, in.roots...)
}

func (in *Inbox) rootsHandler(context.Context) ([]mcpclient.Root, error) { return in.Roots(), nil }

// checkRoots refuses a list MCP does not allow: a root is a file:// URI.
func checkRoots(roots []mcpclient.Root) error {
	if len(roots) > maxRoots {
		return fmt.Errorf("more than %d roots", maxRoots)
	}
	for _, r := range roots {
		if len(r.URI) > maxRootText || len(r.Name) > maxRootText {
			return fmt.Errorf("a root's URI or name is over %d bytes", maxRootText)
		}
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme != "file" || u.Path == "" {
			return errors.New("a root is a file:// URI, as file:///home/me/project")
		}
	}
	return nil
}

func (s *Server) apiRoots(w http.ResponseWriter, r *http.Request) {
	if s.opts.Inbox == nil {
		writeJSON(w, http.StatusOK, map[string]any{"roots": []mcpclient.Root{}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"roots": s.opts.Inbox.Roots()})
}

func (s *Server) apiSetRoots(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Roots []mcpclient.Root `json:"roots"`
	}
	if !readBody(w, r, &req) {
		return
	}
	if s.opts.Inbox == nil {
		writeErr(w, http.StatusNotFound, errors.New("the page does not keep roots"))
		return
	}
	if err := checkRoots(req.Roots); err != nil {
		writeErr(w, http.StatusBadRequest, err)
		return
	}
	s.opts.Inbox.SetRoots(req.Roots)
	told := []string{}
	for _, st := range s.opts.Registry.Servers() {
		if st.State != toolreg.StateConnected {
			continue
		}
		if sess, err := s.opts.Registry.Session(r.Context(), st.Name); err == nil && sess.NotifyRootsChanged(r.Context()) == nil {
			told = append(told, st.Name)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"roots": s.opts.Inbox.Roots(), "told": told})
}
