package webui

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"

	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/toolreg"
)

// An ad-hoc server: the person connects one more server from the page,
// by a command (stdio) or a URL (Streamable HTTP), beside the configured
// ones, until mcpc web ends. Only the page can ask (its token, Origin and
// a JSON body): a command runs as the person who typed it.

// serverName is the shape of an ad-hoc server's name: it becomes part of
// every tool's exposed name.
var serverName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// maxArgs bounds an ad-hoc command's arguments.
const maxArgs = 256

type addServer struct {
	Name    string   `json:"name"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	URL     string   `json:"url"`
}

func (a *addServer) config() (*toolreg.ServerConfig, error) {
	if !serverName.MatchString(a.Name) {
		return nil, errors.New("a server's name is 1 to 64 letters, digits, - or _")
	}
	switch {
	case a.URL != "" && a.Command != "":
		return nil, errors.New("give a command or a URL, not both")
	case a.URL != "":
		if _, err := safeurl.Parse("the server's URL", a.URL); err != nil {
			return nil, err
		}
		return &toolreg.ServerConfig{Name: a.Name, Type: "http", URL: a.URL}, nil
	case a.Command != "":
		if len(a.Args) > maxArgs {
			return nil, fmt.Errorf("more than %d arguments", maxArgs)
		}
		return &toolreg.ServerConfig{Name: a.Name, Type: "stdio", Command: a.Command, Args: a.Args}, nil
	}
	return nil, errors.New("give a command or a URL")
}

func (s *Server) apiAddServer(w http.ResponseWriter, r *http.Request) {
	var req addServer
	if !readBody(w, r, &req) {
		return
	}
	sc, err := req.config()
	if err != nil {
		writeErr(w, http.StatusBadRequest, err)
		return
	}
	if err := s.opts.Registry.Add(r.Context(), sc); err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"added": sc.Name})
}
