package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Tasks let a server answer a long tool call with a handle that the client
// polls instead of one response that must arrive before a timeout. MCP has
// two generations of them:
//
//   - 2025-11-25 (handshake era, experimental in the core specification):
//     the client asks for a task (tools/call with params.task) when the
//     server declares tasks.requests.tools.call and the tool's
//     execution.taskSupport allows it; it polls tasks/get and fetches the
//     outcome with tasks/result, which the server holds open while it sends
//     its own requests (elicitation, sampling) for the task. A
//     notifications/tasks/status the server may send stands in for the
//     next poll (tasks_status.go).
//   - 2026-07-28 (stateless era, the extension io.modelcontextprotocol/tasks,
//     SEP-2663): the client declares the extension on every request and the
//     server decides, call by call, to answer with resultType "task"; the
//     client polls tasks/get, whose answer carries the outcome (result or
//     error) and the task's inputRequests, which the client answers once
//     each with tasks/update.
//
// Options.Tasks opts in to both. CallTool then drives a task to its final
// result on the caller's goroutine; StartTool, TaskStatus, AwaitTask,
// CancelTask and Tasks are the handle API for hosts that return to the user
// meanwhile.

// TasksExtension is the identifier of the stateless era's tasks extension
// (SEP-2663), declared in capabilities.extensions.
const TasksExtension = "io.modelcontextprotocol/tasks"

// relatedTaskKey is the _meta key that ties a message to a task
// (2025-11-25).
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// TaskOptions configures how a session uses tasks; see Options.Tasks. The
// zero value is valid and means the defaults below.
type TaskOptions struct {
	// TTL asks a handshake-era server to keep a task this long after it
	// was created (params.task.ttl). Zero asks for nothing: the server
	// picks.
	TTL time.Duration
	// MinPollInterval and MaxPollInterval bound the server's suggested
	// polling interval, whatever it says. Zero means 100ms and 30s. A
	// server that suggests none is polled every second, within the bounds.
	MinPollInterval time.Duration
	MaxPollInterval time.Duration
	// MaxWait bounds how long a task is driven (polled, its outcome
	// awaited) when the caller's context has no deadline. Zero means one
	// hour. The task's own TTL is a backstop too: a task still not done
	// when its TTL has passed is given up with ErrTaskExpired.
	MaxWait time.Duration
}

func (o *TaskOptions) minPoll() time.Duration {
	return orDefault(o.MinPollInterval, 100*time.Millisecond)
}
func (o *TaskOptions) maxPoll() time.Duration { return orDefault(o.MaxPollInterval, 30*time.Second) }
func (o *TaskOptions) maxWait() time.Duration { return orDefault(o.MaxWait, time.Hour) }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// The statuses of a task. Completed, failed and cancelled are terminal.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// Task is the state of a task as the server last reported it, in either
// era. StatusMessage is the server's text: data, not instructions.
type Task struct {
	ID            string
	Status        string
	StatusMessage string
	CreatedAt     string // ISO 8601, as the server sent it
	LastUpdatedAt string
	// TTL is how long the server keeps the task after its creation; zero
	// when it keeps it without limit.
	TTL time.Duration
	// PollInterval is the server's suggested polling interval, zero for
	// none.
	PollInterval time.Duration
}

// Terminal reports whether the task is done: completed, failed or
// cancelled.
func (t *Task) Terminal() bool {
	return t.Status == TaskCompleted || t.Status == TaskFailed || t.Status == TaskCancelled
}

var (
	// ErrTaskCancelled matches the error of a task that ended cancelled.
	ErrTaskCancelled = errors.New("mcpclient: task cancelled")
	// ErrTaskExpired matches the error of a task given up because its TTL
	// or Options.Tasks.MaxWait passed before it was done.
	ErrTaskExpired = errors.New("mcpclient: task expired")
	// ErrTaskRequired matches the error of a call to a tool whose
	// execution.taskSupport is "required" on a session without
	// Options.Tasks: the server would refuse it.
	ErrTaskRequired = errors.New("mcpclient: the tool must run as a task")
)

// TaskError is the error of a task that did not complete: it failed (Err
// is the server's JSON-RPC error, with its code), was cancelled
// (ErrTaskCancelled) or expired (ErrTaskExpired).
type TaskError struct {
	Task Task
	Err  error
}

func (e *TaskError) Error() string {
	msg := fmt.Sprintf("mcpclient: task %q %s", truncate(e.Task.ID, 64), e.Task.Status)
	if e.Task.StatusMessage != "" {
		msg += " (" + truncate(e.Task.StatusMessage, 200) + ")"
	}
	return msg + ": " + e.Err.Error()
}

func (e *TaskError) Unwrap() error { return e.Err }

type taskStatusKey struct{}

// WithTaskStatus returns a context whose tool calls report each state the
// session observes of their task (created, each poll, the outcome) to fn,
// on the calling goroutine, before the call returns. A call the server
// answers at once reports nothing.
func WithTaskStatus(ctx context.Context, fn func(Task)) context.Context {
	return context.WithValue(ctx, taskStatusKey{}, fn)
}

// StartTool calls a tool and returns as soon as the server has made a task
// of it: the task's first state, with a nil result. A server that answers
// the call at once returns its result and a nil task. Drive the task with
// AwaitTask, look at it with TaskStatus, stop it with CancelTask.
func (s *Session) StartTool(ctx context.Context, name string, args any) (*Task, *CallToolResult, error) {
	return s.startTool(ctx, name, args)
}

// TaskStatus asks the server for a task's state (tasks/get). It only
// looks: input the task waits for is answered by AwaitTask.
func (s *Session) TaskStatus(ctx context.Context, id string) (*Task, error) {
	d, err := s.getTask(ctx, id)
	if err != nil {
		return nil, err
	}
	return &d.task, nil
}

// AwaitTask drives a tool call's task to its final result, as CallTool
// does after StartTool: it polls at the server's interval (within
// Options.Tasks' bounds), answers what the task asks for through the
// session's sampling, elicitation and roots handlers, and returns the
// result, or a *TaskError. When ctx ends first the task is cancelled at
// the server (tasks/cancel) and ctx's error returned.
func (s *Session) AwaitTask(ctx context.Context, id string) (*CallToolResult, error) {
	if err := s.tasksEnabled(); err != nil {
		return nil, err
	}
	return s.driveTask(ctx, &Task{ID: id, Status: TaskWorking}, true)
}

// CancelTask asks the server to cancel a task (tasks/cancel). The server
// decides whether and when the task stops.
func (s *Session) CancelTask(ctx context.Context, id string) error {
	if err := s.tasksEnabled(); err != nil {
		return err
	}
	s.tasks.forget(id)
	return s.callNamed(ctx, "tasks/cancel", id, taskIDParams{id}, nil)
}

func (s *Session) tasksEnabled() error {
	if s.opts.Tasks == nil {
		return errors.New("mcpclient: tasks are not enabled (Options.Tasks)")
	}
	return nil
}

type taskIDParams struct {
	TaskID string `json:"taskId"`
}

// driveTask follows a task to its outcome, in the session's era. A task
// only known by its id (AwaitTask) is polled at once.
func (s *Session) driveTask(ctx context.Context, t *Task, pollFirst bool) (*CallToolResult, error) {
	d := s.newDriver(ctx, t, pollFirst)
	var raw json.RawMessage
	var err error
	if s.Era() == EraStateless {
		raw, err = d.runStateless(ctx)
	} else {
		raw, err = d.runLegacy(ctx)
	}
	if err != nil {
		// Unless the task ended at the server, it may run on: a caller
		// that gave up, a deadline, an answer we refuse all stop it.
		var te *TaskError
		if !errors.As(err, &te) || errors.Is(err, ErrTaskExpired) || !te.Task.Terminal() {
			s.cancelTaskInBackground(d.task.ID)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return decodeToolResult(raw)
}

// cancelTaskInBackground sends tasks/cancel for a task the caller gave up
// on, detached from its context and bounded on its own, as a cancellation
// notice is (see abandoned). A handshake-era server that did not declare
// tasks.cancel is not asked.
func (s *Session) cancelTaskInBackground(id string) {
	s.tasks.forget(id)
	if s.Era() != EraStateless && !s.serverTaskCap("cancel") {
		return
	}
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	if s.closed {
		return
	}
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		ctx, cancel := context.WithTimeout(context.Background(), cancelNoticeTimeout)
		defer cancel()
		if err := s.callNamed(ctx, "tasks/cancel", id, taskIDParams{id}, nil); err != nil {
			s.log.Debug("mcpclient: could not cancel a task", "task", truncate(id, 64), "error", err)
		}
	}()
}

// decodeToolResult decodes a task's final result as a tools/call result.
func decodeToolResult(raw json.RawMessage) (*CallToolResult, error) {
	w := getToolWire()
	defer putToolWire(w)
	if err := decodeResult("tools/call", raw, w, false, nil); err != nil {
		return nil, err
	}
	return w.result(raw)
}

// taskError makes the error of a task that ended without a result.
func taskError(t *Task, rpcErr *jsonrpc.Error) error {
	switch {
	case t.Status == TaskCancelled:
		return &TaskError{Task: *t, Err: ErrTaskCancelled}
	case rpcErr != nil:
		return &TaskError{Task: *t, Err: rpcErr}
	}
	return &TaskError{Task: *t, Err: fmt.Errorf("%w: the server gave no error for the failed task", ErrMalformedResult)}
}
