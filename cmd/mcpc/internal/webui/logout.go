package webui

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/plainmcp/plainmcp/toolreg"
)

// LoggedOut is what Auth.Logout did.
type LoggedOut struct {
	HadTokens bool  // the host held tokens of the server's
	Revoked   bool  // the authorization server revoked them
	RevokeErr error // why revoking them failed; they are forgotten all the same
}

// logoutReconnect bounds the new connection a logout makes, which tells
// the page whether the server now needs a login.
const logoutReconnect = 30 * time.Second

// logoutJSON is a logout's outcome, for the page.
type logoutJSON struct {
	HadTokens   bool   `json:"hadTokens"`
	Revoked     bool   `json:"revoked"`
	RevokeError string `json:"revokeError,omitempty"`
	State       string `json:"state"` // the server's, after
}

// apiLogout logs the person out of the named server (POST /logout
// {"server": …}): the host revokes and forgets its tokens, and the
// server's session is replaced by a new connection, which has none, so
// nothing goes on with the token the old one held; the server then needs
// a login (or, if it lets clients in without one, is connected without).
func (s *Server) apiLogout(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Server string `json:"server"`
	}
	if !readBody(w, r, &req) || !s.canAuth(w, req.Server) {
		return
	}
	out, err := s.opts.Auth.Logout(r.Context(), req.Server)
	if err != nil {
		writeErr(w, http.StatusInternalServerError, err)
		return
	}
	s.logins.forget(req.Server)
	ctx, cancel := context.WithTimeout(r.Context(), logoutReconnect)
	defer cancel()
	err = s.opts.Registry.Reconnect(ctx, req.Server)
	j := logoutJSON{HadTokens: out.HadTokens, Revoked: out.Revoked, State: s.stateOf(req.Server)}
	if out.RevokeErr != nil {
		j.RevokeError = out.RevokeErr.Error()
	}
	if err != nil && !errors.Is(err, toolreg.ErrNeedsAuth) {
		s.log.Info("webui: reconnecting after a logout", "server", req.Server, "err", err)
	}
	writeJSON(w, http.StatusOK, j)
}

// stateOf is the named server's state.
func (s *Server) stateOf(name string) string {
	for _, st := range s.opts.Registry.Servers() {
		if st.Name == name {
			return st.State
		}
	}
	return ""
}
