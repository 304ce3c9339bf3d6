package webui

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"sync"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/task"
)

// The person's calls in flight: the page names each call it starts (an
// id of its own), reads the progress the server reports under that name,
// and cancels it there, which cancels the call's context, so the server
// gets notifications/cancelled.

// maxRunning bounds the calls the page may have in flight at once.
const maxRunning = 64

// callID is the shape of a page's name for a call.
var callID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

var (
	errBusy      = errors.New("too many calls in flight")
	errCallID    = errors.New(`"id" is 1 to 64 letters, digits, - or _`)
	errIDInUse   = errors.New("a call with this id is in flight")
	errNoRunning = errors.New("no call with this id is in flight")
)

// running is one call in flight.
type running struct {
	cancel context.CancelFunc

	mu        sync.Mutex
	progress  *mcpclient.Progress // the last the server reported
	task      *taskJSON           // the call's task, when it runs as one
	cancelled bool                // by the person
}

// taskJSON is the state of a call's task as the page shows it.
type taskJSON struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
}

func (c *running) reportTask(t task.Task) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.task = &taskJSON{ID: cut(t.ID), Status: cut(t.Status), StatusMessage: cut(t.StatusMessage)}
}

func (c *running) report(p mcpclient.Progress) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p.Message = cut(p.Message) // the server's text, as a task's status is
	c.progress = &p
}

// runningCalls is the page's calls in flight, by id.
type runningCalls struct {
	mu    sync.Mutex
	calls map[string]*running
}

// start registers a call under id and returns its context, which carries
// a progress callback and ends when the call is cancelled; done forgets it.
func (rc *runningCalls) start(ctx context.Context, id string) (context.Context, *running, func(), error) {
	if !callID.MatchString(id) {
		return nil, nil, nil, errCallID
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.calls == nil {
		rc.calls = map[string]*running{}
	}
	if _, ok := rc.calls[id]; ok {
		return nil, nil, nil, errIDInUse
	}
	if len(rc.calls) >= maxRunning {
		return nil, nil, nil, errBusy
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &running{cancel: cancel}
	rc.calls[id] = c
	done := func() {
		cancel()
		rc.mu.Lock()
		delete(rc.calls, id)
		rc.mu.Unlock()
	}
	return task.WithStatus(mcpclient.WithProgress(ctx, c.report), c.reportTask), c, done, nil
}

func (rc *runningCalls) find(id string) *running {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.calls[id]
}

// apiProgress answers the last progress a call in flight reported, and
// the state of its task when it runs as one.
func (s *Server) apiProgress(w http.ResponseWriter, r *http.Request) {
	c := s.running.find(r.URL.Query().Get("id"))
	if c == nil {
		writeErr(w, http.StatusNotFound, errNoRunning)
		return
	}
	c.mu.Lock()
	p, t := c.progress, c.task
	c.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"progress": p, "task": t})
}

// apiCancel cancels a call in flight: its context ends, and the session
// tells the server (notifications/cancelled).
func (s *Server) apiCancel(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID string `json:"id"`
	}
	if !readBody(w, r, &req) {
		return
	}
	c := s.running.find(req.ID)
	if c == nil {
		writeErr(w, http.StatusNotFound, errNoRunning)
		return
	}
	c.mu.Lock()
	c.cancelled = true
	c.mu.Unlock()
	c.cancel()
	writeJSON(w, http.StatusOK, map[string]any{"cancelled": true})
}
