package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The research tool runs as a task, in either era: 2025-11-25's
// experimental tasks (the client asks with params.task; tasks/get,
// tasks/result, tasks/list, tasks/cancel) and the stateless era's tasks
// extension (io.modelcontextprotocol/tasks: the server answers with
// resultType "task"; tasks/get carries the outcome and inputRequests,
// tasks/update the answers, tasks/cancel an acknowledgement). Tasks belong
// to the session (one stdio connection) that made them; their ids count
// up within it.

const (
	tasksExtension = "io.modelcontextprotocol/tasks"
	relatedTask    = "io.modelcontextprotocol/related-task"
	taskPollMs     = 100
	taskTTLMs      = 10 * 60 * 1000
	maxTasks       = 64 // per session; the oldest finished one makes room
)

// taskEntry is one task. The store's mutex guards its fields.
type taskEntry struct {
	id               string
	stateless        bool
	status, message  string
	created, updated time.Time
	result           json.RawMessage // the tools/call result, once completed
	err              *jsonrpc.Error  // the JSON-RPC error, once failed
	done             chan struct{}   // closed when the task is terminal
	cancel           context.CancelFunc
	// Stateless era: the input requests outstanding and where each
	// answer goes.
	inputs  map[string]json.RawMessage
	answers map[string]chan json.RawMessage
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// taskStore holds a session's tasks.
type taskStore struct {
	mu    sync.Mutex
	seq   int
	tasks map[string]*taskEntry
	order []string // ids, oldest first
}

// create makes a task whose work runs under the returned context until
// it ends or is cancelled.
func (ts *taskStore) create(stateless bool) (*taskEntry, context.Context, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.tasks == nil {
		ts.tasks = map[string]*taskEntry{}
	}
	if len(ts.order) >= maxTasks && !ts.dropFinishedLocked() {
		return nil, nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "too many tasks at once (%d)", maxTasks)
	}
	ts.seq++
	ctx, cancel := context.WithCancel(context.Background())
	now := time.Now().UTC()
	t := &taskEntry{
		id: fmt.Sprintf("task-%d", ts.seq), stateless: stateless, status: "working",
		created: now, updated: now, done: make(chan struct{}), cancel: cancel,
		inputs: map[string]json.RawMessage{}, answers: map[string]chan json.RawMessage{},
	}
	ts.tasks[t.id] = t
	ts.order = append(ts.order, t.id)
	return t, ctx, nil
}

func (ts *taskStore) dropFinishedLocked() bool {
	for i, id := range ts.order {
		if terminal(ts.tasks[id].status) {
			delete(ts.tasks, id)
			ts.order = append(ts.order[:i], ts.order[i+1:]...)
			return true
		}
	}
	return false
}

// get finds a task by the taskId of params: -32602 for none.
func (ts *taskStore) get(method string, params json.RawMessage) (*taskEntry, error) {
	var p struct {
		TaskID string `json:"taskId"`
	}
	if err := decodeParams(method, params, &p); err != nil {
		return nil, err
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t := ts.tasks[p.TaskID]; t != nil {
		return t, nil
	}
	return nil, invalidParams("%s: no task %q", method, p.TaskID)
}

// set moves a task on, unless it has ended: a cancelled task stays so.
func (ts *taskStore) set(t *taskEntry, status, message string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if terminal(t.status) {
		return
	}
	t.status, t.message, t.updated = status, message, time.Now().UTC()
	if terminal(status) {
		close(t.done)
		t.cancel()
	}
}

// finish ends a task with its result or error.
func (ts *taskStore) finish(t *taskEntry, result json.RawMessage, err *jsonrpc.Error) {
	ts.mu.Lock()
	t.result, t.err = result, err
	ts.mu.Unlock()
	if err != nil {
		ts.set(t, "failed", err.Message)
		return
	}
	ts.set(t, "completed", "done")
}

// cancelAll ends every task: the session is over.
func (ts *taskStore) cancelAll() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, t := range ts.tasks {
		t.cancel()
	}
}

// view is a task as tasks/get shows it in its era; the stateless era's
// carries the outcome and the input requests inline.
func (ts *taskStore) view(t *taskEntry) map[string]any {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	v := map[string]any{
		"taskId": t.id, "status": t.status, "statusMessage": t.message,
		"createdAt": t.created.Format(time.RFC3339Nano), "lastUpdatedAt": t.updated.Format(time.RFC3339Nano),
	}
	if !t.stateless {
		v["ttl"], v["pollInterval"] = taskTTLMs, taskPollMs
		return v
	}
	v["ttlMs"], v["pollIntervalMs"] = taskTTLMs, taskPollMs
	switch {
	case t.status == "completed":
		v["result"] = t.result
	case t.status == "failed":
		v["error"] = t.err
	case t.status == "input_required":
		v["inputRequests"] = t.inputs
	}
	return v
}

// The 2025-11-25 methods.

func (ss *session) getTask(ctx context.Context, params json.RawMessage) (any, error) {
	t, err := ss.tasks.get("tasks/get", params)
	if err != nil {
		return nil, err
	}
	v := ss.tasks.view(t)
	if t.stateless {
		v["resultType"] = "complete"
	}
	return v, nil
}

// taskResult holds the answer until the task ends, then gives what the
// call would have: its result (with the related-task metadata) or its
// error.
func (ss *session) taskResult(ctx context.Context, params json.RawMessage) (any, error) {
	t, err := ss.tasks.get("tasks/result", params)
	if err != nil {
		return nil, err
	}
	if t.stateless {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: tasks/result")
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ss.tasks.mu.Lock()
	defer ss.tasks.mu.Unlock()
	switch t.status {
	case "failed":
		return nil, t.err
	case "cancelled":
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "task %s was cancelled", t.id)
	}
	var res map[string]json.RawMessage
	json.Unmarshal(t.result, &res)
	res["_meta"] = mustJSON(map[string]any{relatedTask: map[string]string{"taskId": t.id}})
	return res, nil
}

func (ss *session) listTasks(ctx context.Context, params json.RawMessage) (any, error) {
	var p pageParams
	if err := decodeParams("tasks/list", params, &p); err != nil {
		return nil, err
	}
	ss.tasks.mu.Lock()
	ids := append([]string(nil), ss.tasks.order...)
	ss.tasks.mu.Unlock()
	start, end, next, err := page("tasks/list", p.Cursor, len(ids), ss.srv.pageSize)
	if err != nil {
		return nil, err
	}
	items := make([]json.RawMessage, 0, end-start)
	for _, id := range ids[start:end] {
		ss.tasks.mu.Lock()
		t := ss.tasks.tasks[id]
		ss.tasks.mu.Unlock()
		if t != nil {
			items = append(items, mustJSON(ss.tasks.view(t)))
		}
	}
	return appendPage("tasks", items, next), nil
}

// cancelTask cancels a task that has not ended: 2025-11-25 answers with
// the task (a terminal one is -32602), the extension with an
// acknowledgement.
func (ss *session) cancelTask(ctx context.Context, params json.RawMessage) (any, error) {
	t, err := ss.tasks.get("tasks/cancel", params)
	if err != nil {
		return nil, err
	}
	ss.tasks.mu.Lock()
	ended := terminal(t.status)
	ss.tasks.mu.Unlock()
	if ended && !t.stateless {
		return nil, invalidParams("tasks/cancel: task %s has already ended", t.id)
	}
	ss.tasks.set(t, "cancelled", "cancelled at the client's request")
	if t.stateless {
		return map[string]string{"resultType": "complete"}, nil
	}
	return ss.tasks.view(t), nil
}
