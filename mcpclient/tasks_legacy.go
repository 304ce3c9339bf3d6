package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The handshake era's tasks (2025-11-25): the client asks for a task, the
// server says by capability and by tool whether it may.

// TaskSupport is the tool's execution.taskSupport: "required", "optional"
// or "forbidden" (the default when absent or unknown).
func (t *Tool) TaskSupport() string {
	var e struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(t.Execution, &e) == nil && (e.TaskSupport == "required" || e.TaskSupport == "optional") {
		return e.TaskSupport
	}
	return "forbidden"
}

// serverTaskCap reports whether a handshake-era server declared
// tasks.list ("list"), tasks.cancel ("cancel") or
// tasks.requests.tools.call ("tools/call").
func (s *Session) serverTaskCap(what string) bool {
	var c struct {
		List     json.RawMessage `json:"list"`
		Cancel   json.RawMessage `json:"cancel"`
		Requests struct {
			Tools struct {
				Call json.RawMessage `json:"call"`
			} `json:"tools"`
		} `json:"requests"`
	}
	if json.Unmarshal(s.Capabilities().Tasks, &c) != nil {
		return false
	}
	v := map[string]json.RawMessage{"list": c.List, "cancel": c.Cancel, "tools/call": c.Requests.Tools.Call}[what]
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// recordTaskSupport remembers the task support of the tools of a
// tools/list page; the first page starts afresh.
func (s *Session) recordTaskSupport(cursor string, tools []*Tool) {
	ts := &s.tasks
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if cursor == "" || ts.support == nil {
		ts.support = map[string]string{}
	}
	for _, t := range tools {
		if v := t.TaskSupport(); v != "forbidden" {
			ts.support[t.Name] = v
		} else {
			delete(ts.support, t.Name)
		}
	}
	ts.listed = true
}

// wantTask decides whether a handshake-era tools/call asks for a task.
// The spec's rules: never unless the server declared
// tasks.requests.tools.call; then always for a tool whose taskSupport is
// "required" (which fails at once without Options.Tasks), never for one
// that is "forbidden", and — with Options.Tasks — for "optional" too, so a
// long call outlives the request timeout. A tool not yet seen in a listing
// is looked up once.
func (s *Session) wantTask(ctx context.Context, name string) (bool, error) {
	if s.Era() == EraStateless || !s.serverTaskCap("tools/call") {
		return false, nil
	}
	s.tasks.mu.Lock()
	support, listed := s.tasks.support[name], s.tasks.listed
	s.tasks.mu.Unlock()
	if !listed && s.opts.Tasks != nil {
		if _, err := Collect(s.Tools(ctx)); err != nil {
			return false, fmt.Errorf("mcpclient: listing tools to learn whether %q runs as a task: %w", name, err)
		}
		s.tasks.mu.Lock()
		support = s.tasks.support[name]
		s.tasks.mu.Unlock()
	}
	switch support {
	case "required":
		if s.opts.Tasks == nil {
			return false, fmt.Errorf("%w: %q (set Options.Tasks)", ErrTaskRequired, name)
		}
		return true, nil
	case "optional":
		return s.opts.Tasks != nil, nil
	}
	return false, nil
}

// taskParams is tools/call's params.task.
type taskParams struct {
	TTL int64 `json:"ttl,omitempty"`
}

func (s *Session) taskParams() *taskParams {
	return &taskParams{TTL: s.opts.Tasks.TTL.Milliseconds()}
}

// legacyCreated reads the CreateTaskResult a handshake-era server answers
// a task-augmented call with; nil when it answered the call itself (a
// server that does not make tasks of this tool ignores params.task).
func legacyCreated(raw json.RawMessage) (*Task, error) {
	var c struct {
		Task *taskWire `json:"task"`
	}
	if err := json.Unmarshal(raw, &c); err != nil || c.Task == nil {
		return nil, nil
	}
	d, err := parseTask("tools/call", c.Task)
	if err != nil {
		return nil, err
	}
	return &d.task, nil
}

// runLegacy polls tasks/get until the task ends or waits for input, then
// takes its outcome from tasks/result. The server holds tasks/result open
// while it needs input and sends its requests (elicitation, sampling) for
// the task meanwhile; the session's handlers answer them as any other.
func (d *taskDriver) runLegacy(ctx context.Context) (json.RawMessage, error) {
	notices, stop := d.s.tasks.watchTask(d.task.ID)
	defer stop()
	d.notices = notices
	for {
		switch d.task.Status {
		case TaskCancelled:
			return nil, taskError(&d.task, nil)
		case TaskCompleted, TaskFailed, TaskInputRequired:
			return d.legacyResult(ctx)
		}
		notice, err := d.wait(ctx)
		if err != nil {
			return nil, err
		}
		if notice != nil {
			d.observe(notice)
			continue
		}
		t, err := d.s.getTask(ctx, d.task.ID)
		if err != nil {
			return nil, err
		}
		d.observe(&t.task)
	}
}

// legacyResult waits for tasks/result: the task's result, or the JSON-RPC
// error its request ended with.
func (d *taskDriver) legacyResult(ctx context.Context) (json.RawMessage, error) {
	rctx, cancel := d.boundedContext(ctx)
	defer cancel()
	var raw json.RawMessage
	err := d.s.callNamed(rctx, "tasks/result", d.task.ID, taskIDParams{d.task.ID}, &raw)
	t := d.task
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		t.Status = TaskCompleted
		d.observe(&t)
		return raw, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.As(err, &rpcErr):
		t.Status = TaskFailed
		d.observe(&t)
		return nil, taskError(&t, rpcErr)
	case rctx.Err() != nil:
		return nil, &TaskError{Task: t, Err: ErrTaskExpired}
	}
	return nil, err
}

// ListTasksResult is one page of tasks/list.
type ListTasksResult struct {
	Tasks      []*Task
	NextCursor string
}

// ListTasks fetches one page of the server's tasks (tasks/list, handshake
// era only: the stateless era's extension has no listing).
func (s *Session) ListTasks(ctx context.Context, cursor string) (*ListTasksResult, error) {
	if err := s.tasksEnabled(); err != nil {
		return nil, err
	}
	if s.Era() == EraStateless {
		return nil, errors.New("mcpclient: tasks/list does not exist in the stateless era's tasks extension")
	}
	var page struct {
		Tasks      []*taskWire `json:"tasks"`
		NextCursor string      `json:"nextCursor,omitempty"`
	}
	if err := s.call(ctx, "tasks/list", pageParams{cursor}, &page); err != nil {
		return nil, err
	}
	res := &ListTasksResult{NextCursor: page.NextCursor, Tasks: make([]*Task, 0, len(page.Tasks))}
	for _, w := range page.Tasks {
		if w == nil {
			return nil, fmt.Errorf("%w: tasks/list has a null task", ErrMalformedResult)
		}
		d, err := parseTask("tasks/list", w)
		if err != nil {
			return nil, err
		}
		res.Tasks = append(res.Tasks, &d.task)
	}
	return res, nil
}

// Tasks iterates over every task the server lists, page by page, within
// Options.MaxPages.
func (s *Session) Tasks(ctx context.Context) iter.Seq2[*Task, error] {
	return paginate(s, "tasks/list", func(c string) ([]*Task, string, error) {
		r, err := s.ListTasks(ctx, c)
		if err != nil {
			return nil, "", err
		}
		return r.Tasks, r.NextCursor, nil
	})
}

// withRelatedTask adds to the answer of a server request that belongs to a
// task the io.modelcontextprotocol/related-task metadata the request
// carried: 2025-11-25 requires it on every message of a task.
func withRelatedTask(req *jsonrpc.Request, res any) any {
	if !bytes.Contains(req.Params, []byte(relatedTaskKey)) {
		return res
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	rel, ok := json.RawMessage(nil), false
	if json.Unmarshal(req.Params, &p) == nil {
		rel, ok = p.Meta[relatedTaskKey]
	}
	raw, err := marshalPlain(res)
	var out map[string]json.RawMessage
	if !ok || err != nil || json.Unmarshal(raw, &out) != nil {
		return res
	}
	meta := map[string]json.RawMessage{}
	json.Unmarshal(out["_meta"], &meta) // absent or not an object: start afresh
	meta[relatedTaskKey] = rel
	out["_meta"], _ = marshalPlain(meta)
	return out
}
