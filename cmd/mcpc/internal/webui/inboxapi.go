package webui

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
)

// The page's side of the inbox: what servers said and asked since the
// page last looked, the person's answers, and the log level.

func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request) {
	since, _ := strconv.ParseInt(r.URL.Query().Get("since"), 10, 64)
	if s.opts.Inbox == nil {
		writeJSON(w, http.StatusOK, []Event{})
		return
	}
	writeJSON(w, http.StatusOK, s.opts.Inbox.Since(since))
}

func (s *Server) apiAnswer(w http.ResponseWriter, r *http.Request) {
	var ans Answer
	if !readBody(w, r, &ans) {
		return
	}
	if !slices.Contains([]string{"accept", "decline", "cancel"}, ans.Action) {
		writeErr(w, http.StatusBadRequest, errors.New(`"action" is accept, decline or cancel`))
		return
	}
	if s.opts.Inbox == nil {
		writeErr(w, http.StatusNotFound, errNoSuchAsk)
		return
	}
	if err := s.opts.Inbox.answer(ans); err != nil {
		writeErr(w, http.StatusNotFound, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"answered": ans.ID})
}

// logLevels are the levels of logging/setLevel (RFC 5424's, as MCP names
// them).
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func (s *Server) apiLogLevel(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Server string `json:"server"`
		Level  string `json:"level"`
	}
	if !readBody(w, r, &req) {
		return
	}
	if !slices.Contains(logLevels, req.Level) {
		writeErr(w, http.StatusBadRequest, errors.New("unknown log level"))
		return
	}
	sess, err := s.opts.Registry.Session(r.Context(), req.Server)
	if err == nil {
		err = sess.SetLogLevel(r.Context(), req.Level)
	}
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"level": req.Level})
}

func (s *Server) apiPing(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Server string `json:"server"`
	}
	if !readBody(w, r, &req) {
		return
	}
	sess, err := s.opts.Registry.Session(r.Context(), req.Server)
	if err == nil {
		err = sess.Ping(r.Context())
	}
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}
