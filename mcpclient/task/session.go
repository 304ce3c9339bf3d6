package task

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/internal/ext"
)

// sessionTasks is what one session remembers about tasks: the
// ext.Tasks that Options.Attach returns.
type sessionTasks struct {
	s    *mcpclient.Session
	opts Options

	// mu guards the maps and listed below.
	mu sync.Mutex
	// support is each listed tool's execution.taskSupport other than
	// "forbidden" (handshake era); listed says a tools/list was read.
	support map[string]string
	listed  bool
	// answered is, per task, the inputRequests keys already answered
	// (stateless era): each is answered once, however often it is polled.
	answered map[string]map[string]bool
	// watching is, per task being driven, where its status notices go
	// (status.go).
	watching map[string]chan Task
}

// of returns the task state Options attached to s.
func of(s *mcpclient.Session) (*sessionTasks, error) {
	st, ok := ext.SessionOf(s).Tasks().(*sessionTasks)
	if !ok {
		return nil, ErrNotEnabled
	}
	return st, nil
}

// answeredAlready reports whether key was answered for task.
func (st *sessionTasks) answeredAlready(task, key string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.answered[task][key]
}

// markAnswered records keys as answered for task. It fails when a task
// asks for more than the bound over its life.
func (st *sessionTasks) markAnswered(task string, keys []string) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.answered == nil {
		st.answered = map[string]map[string]bool{}
	}
	done := st.answered[task]
	if done == nil {
		if len(st.answered) >= maxTrackedTasks {
			for k := range st.answered { // forget one: any is as good as another
				delete(st.answered, k)
				break
			}
		}
		done = map[string]bool{}
		st.answered[task] = done
	}
	if len(done)+len(keys) > maxTaskInputsPerTask {
		return fmt.Errorf("%w: the task asked for more than %d inputs", mcpclient.ErrMalformedResult, maxTaskInputsPerTask)
	}
	for _, k := range keys {
		done[k] = true
	}
	return nil
}

// forget drops what is remembered of a task that ended or was cancelled.
func (st *sessionTasks) forget(task string) {
	st.mu.Lock()
	delete(st.answered, task)
	st.mu.Unlock()
}

type idParams struct {
	TaskID string `json:"taskId"`
}

// Drive follows the task a tools/call was answered with to the call's
// result: CallTool's second half.
func (st *sessionTasks) Drive(ctx context.Context, raw json.RawMessage) (*mcpclient.CallToolResult, error) {
	var w taskWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("%w: tools/call: %v", mcpclient.ErrMalformedResult, err)
	}
	d, err := parseTask(methodToolsCall, &w)
	if err != nil {
		return nil, err
	}
	return st.drive(ctx, &d.task, false)
}

// drive follows a task to its outcome, in the session's era. A task only
// known by its id (Await) is polled at once.
func (st *sessionTasks) drive(ctx context.Context, t *Task, pollFirst bool) (*mcpclient.CallToolResult, error) {
	var raw json.RawMessage
	var err error
	var d *taskDriver
	if st.s.Era() == mcpclient.EraStateless {
		d = st.newDriver(ctx, t, pollFirst)
		raw, err = d.runStateless(ctx)
	} else {
		// Notices are watched for before the first state is reported, so
		// none that follows it is missed.
		notices, stop := st.watchTask(t.ID)
		defer stop()
		d = st.newDriver(ctx, t, pollFirst)
		d.notices = notices
		raw, err = d.runLegacy(ctx)
	}
	if err != nil {
		// Unless the task ended at the server, it may run on: a caller
		// that gave up, a deadline, an answer we refuse all stop it.
		var te *Error
		if !errors.As(err, &te) || errors.Is(err, ErrExpired) || !te.Task.terminal() {
			st.cancelInBackground(d.task.ID)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return mcpclient.DecodeToolResult(raw)
}

// cancelInBackground sends tasks/cancel for a task the caller gave up on,
// detached from its context (see ext.Session.CallDetached). A handshake-era
// server that did not declare tasks.cancel is not asked.
func (st *sessionTasks) cancelInBackground(id string) {
	st.forget(id)
	if st.s.Era() != mcpclient.EraStateless && !serverCap(st.s, "cancel") {
		return
	}
	ext.SessionOf(st.s).CallDetached(methodTasksCancel, id, idParams{id})
}
