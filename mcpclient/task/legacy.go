package task

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/internal/ext"
)

// The handshake era's tasks (2025-11-25): the client asks for a task, the
// server says by capability and by tool whether it may.

// serverCap reports whether a handshake-era server declared tasks.list
// ("list"), tasks.cancel ("cancel") or tasks.requests.tools.call
// ("tools/call").
func serverCap(s *mcpclient.Session, what string) bool {
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
	v := map[string]json.RawMessage{"list": c.List, "cancel": c.Cancel, methodToolsCall: c.Requests.Tools.Call}[what]
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// ToolsListed remembers the task support of the tools of a tools/list
// page; the first page starts afresh.
func (ts *sessionTasks) ToolsListed(cursor string, tools []*mcpclient.Tool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if cursor == "" || ts.support == nil {
		ts.support = map[string]string{}
	}
	for _, t := range tools {
		if v := Support(t); v != "forbidden" {
			ts.support[t.Name] = v
		} else {
			delete(ts.support, t.Name)
		}
	}
	ts.listed = true
}

// TaskParams decides whether a handshake-era tools/call asks for a task,
// and returns its params.task if so. The spec's rules: never unless the
// server declared tasks.requests.tools.call; then always for a tool whose
// taskSupport is "required", never for one that is "forbidden", and for
// "optional" too, so that a long call outlives the request timeout. A
// tool not yet seen in a listing is looked up once.
func (ts *sessionTasks) TaskParams(ctx context.Context, name string) (any, error) {
	if ts.s.Era() == mcpclient.EraStateless || !serverCap(ts.s, methodToolsCall) {
		return nil, nil
	}
	ts.mu.Lock()
	support, listed := ts.support[name], ts.listed
	ts.mu.Unlock()
	if !listed {
		if _, err := mcpclient.Collect(ts.s.Tools(ctx)); err != nil {
			return nil, fmt.Errorf("task: listing tools to learn whether %q runs as a task: %w", name, err)
		}
		ts.mu.Lock()
		support = ts.support[name]
		ts.mu.Unlock()
	}
	if support != "required" && support != "optional" {
		return nil, nil
	}
	return &taskParams{TTL: ts.opts.TTL.Milliseconds()}, nil
}

// taskParams is tools/call's params.task.
type taskParams struct {
	TTL int64 `json:"ttl,omitempty"`
}

// runLegacy polls tasks/get until the task ends or waits for input, then
// takes its outcome from tasks/result. The server holds tasks/result open
// while it needs input and sends its requests (elicitation, sampling) for
// the task meanwhile; the session's handlers answer them as any other.
func (d *taskDriver) runLegacy(ctx context.Context) (json.RawMessage, error) {
	for {
		switch d.task.Status {
		case Cancelled:
			return nil, failure(&d.task, nil)
		case Completed, Failed, InputRequired:
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
		t, err := getTask(ctx, d.st.s, d.task.ID)
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
	err := ext.SessionOf(d.st.s).CallNamed(rctx, methodTasksResult, d.task.ID, idParams{d.task.ID}, &raw)
	t := d.task
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		t.Status = Completed
		d.observe(&t)
		return raw, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.As(err, &rpcErr):
		t.Status = Failed
		d.observe(&t)
		return nil, failure(&t, rpcErr)
	case rctx.Err() != nil:
		return nil, &Error{Task: t, Err: ErrExpired}
	}
	return nil, err
}

// listPage is one page of tasks/list.
type listPage struct {
	tasks      []*Task
	nextCursor string
}

// list fetches one page of the server's tasks; cursor "" asks for the
// first.
func list(ctx context.Context, s *mcpclient.Session, cursor string) (*listPage, error) {
	if _, err := of(s); err != nil {
		return nil, err
	}
	if s.Era() == mcpclient.EraStateless {
		return nil, errors.New("task: tasks/list does not exist in the stateless era's tasks extension")
	}
	var page struct {
		Tasks      []*taskWire `json:"tasks"`
		NextCursor string      `json:"nextCursor,omitempty"`
	}
	params := struct {
		Cursor string `json:"cursor,omitempty"`
	}{cursor}
	if err := s.Call(ctx, methodTasksList, params, &page); err != nil {
		return nil, err
	}
	res := &listPage{nextCursor: page.NextCursor, tasks: make([]*Task, 0, len(page.Tasks))}
	for _, w := range page.Tasks {
		if w == nil {
			return nil, fmt.Errorf("%w: tasks/list has a null task", mcpclient.ErrMalformedResult)
		}
		d, err := parseTask(methodTasksList, w)
		if err != nil {
			return nil, err
		}
		res.tasks = append(res.tasks, &d.task)
	}
	return res, nil
}

// All iterates over every task the server lists (tasks/list), fetching
// page after page as the loop asks for more, within
// mcpclient.Options.MaxPages; mcpclient.Collect gathers them in a slice.
// Listing is handshake era only: the stateless era's extension has none,
// and All then yields an error before sending anything, as it does
// (ErrNotEnabled) on a session without mcpclient.Options.Tasks.
func All(ctx context.Context, s *mcpclient.Session) iter.Seq2[*Task, error] {
	return ext.Paginate(ext.SessionOf(s), methodTasksList, func(c string) ([]*Task, string, error) {
		r, err := list(ctx, s, c)
		if err != nil {
			return nil, "", err
		}
		return r.tasks, r.nextCursor, nil
	})
}

// relatedTaskKey is the _meta key that ties a message to a task
// (2025-11-25).
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// Answered adds to the answer of a server request that belongs to a task
// the io.modelcontextprotocol/related-task metadata the request carried:
// 2025-11-25 requires it on every message of a task.
func (ts *sessionTasks) Answered(req *jsonrpc.Request, res any) any {
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
	raw, err := rpcwire.Marshal(res)
	var out map[string]json.RawMessage
	if !ok || err != nil || json.Unmarshal(raw, &out) != nil {
		return res
	}
	meta := map[string]json.RawMessage{}
	json.Unmarshal(out["_meta"], &meta) // absent or not an object: start afresh
	meta[relatedTaskKey] = rel
	out["_meta"], _ = rpcwire.Marshal(meta)
	return out
}
