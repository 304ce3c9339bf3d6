package task

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/internal/ext"
)

// Options configures how a session uses tasks; a *Options is the
// mcpclient.TaskRunner that Options.Tasks of package mcpclient takes. The
// zero value is valid and means the defaults below.
type Options struct {
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
	// when its TTL has passed is given up with ErrExpired.
	MaxWait time.Duration
}

func (o *Options) minPoll() time.Duration { return orDefault(o.MinPollInterval, 100*time.Millisecond) }
func (o *Options) maxPoll() time.Duration { return orDefault(o.MaxPollInterval, 30*time.Second) }
func (o *Options) maxWait() time.Duration { return orDefault(o.MaxWait, time.Hour) }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Attach makes the tasks of one session follow o (a copy of it, taken
// now); Connect calls it. A nil *Options attaches nothing, so the
// session declares no tasks: a nil pointer in Options.Tasks means off, as
// a nil Options.Tasks does, never "on, with defaults".
func (o *Options) Attach(s *mcpclient.Session) ext.Tasks[*mcpclient.CallToolResult, *mcpclient.Tool] {
	if o == nil {
		return nil
	}
	return &sessionTasks{s: s, opts: *o}
}

// The statuses of a task. Completed, failed and cancelled are terminal.
const (
	Working       = "working"
	InputRequired = "input_required"
	Completed     = "completed"
	Failed        = "failed"
	Cancelled     = "cancelled"
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

// terminal reports whether the task is done: completed, failed or
// cancelled.
func (t *Task) terminal() bool {
	return t.Status == Completed || t.Status == Failed || t.Status == Cancelled
}

var (
	// ErrCancelled matches the error of a task that ended cancelled.
	ErrCancelled = errors.New("task: cancelled")
	// ErrExpired matches the error of a task given up because its TTL or
	// Options.MaxWait passed before it was done.
	ErrExpired = errors.New("task: expired")
	// ErrNotEnabled is the error of the handle API on a session without
	// Options.Tasks.
	ErrNotEnabled = errors.New("task: tasks are not enabled (mcpclient.Options.Tasks)")
)

// Error is the error of a task that did not complete: it failed (Err is
// the server's JSON-RPC error, with its code), was cancelled
// (ErrCancelled) or expired (ErrExpired).
type Error struct {
	Task Task
	Err  error
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("task %q %s", clip(e.Task.ID, 64), e.Task.Status)
	if e.Task.StatusMessage != "" {
		msg += " (" + clip(e.Task.StatusMessage, 200) + ")"
	}
	return msg + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// failure makes the error of a task that ended without a result.
func failure(t *Task, rpcErr *jsonrpc.Error) error {
	switch {
	case t.Status == Cancelled:
		return &Error{Task: *t, Err: ErrCancelled}
	case rpcErr != nil:
		return &Error{Task: *t, Err: rpcErr}
	}
	return &Error{Task: *t, Err: fmt.Errorf("%w: the server gave no error for the failed task", mcpclient.ErrMalformedResult)}
}

// clip shortens a server's text for an error or a log.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

type statusKey struct{}

// WithStatus returns a context whose tool calls report each state the
// session observes of their task (created, each poll, the outcome) to fn,
// on the calling goroutine, before the call returns. A call the server
// answers at once reports nothing.
func WithStatus(ctx context.Context, fn func(Task)) context.Context {
	return context.WithValue(ctx, statusKey{}, fn)
}

// Support is the tool's execution.taskSupport: "required", "optional" or
// "forbidden" (the default when absent or unknown).
func Support(t *mcpclient.Tool) string {
	var e struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(t.Execution, &e) == nil && (e.TaskSupport == "required" || e.TaskSupport == "optional") {
		return e.TaskSupport
	}
	return "forbidden"
}
