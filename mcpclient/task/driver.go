package task

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/internal/ext"
)

// What bounds a task the server controls: its id's length, the input
// requests of one poll and of its whole life, and how many tasks' answered
// keys a session remembers.
const (
	maxTaskIDLen          = 1024
	maxTaskInputsPerPoll  = 32
	maxTaskInputsPerTask  = 1024
	maxTrackedTasks       = 256
	defaultTaskPollPeriod = time.Second
)

// taskWire is a task as either era sends it: 2025-11-25's ttl and
// pollInterval, 2026-07-28's ttlMs and pollIntervalMs, and the stateless
// era's outcome and inputRequests inline.
type taskWire struct {
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTL            *float64        `json:"ttl"`
	TTLMs          *float64        `json:"ttlMs"`
	PollInterval   *float64        `json:"pollInterval"`
	PollIntervalMs *float64        `json:"pollIntervalMs"`
	InputRequests  json.RawMessage `json:"inputRequests"`
	Result         json.RawMessage `json:"result"`
	Error          *jsonrpc.Error  `json:"error"`
}

// detailedTask is a task and what came with it.
type detailedTask struct {
	task          Task
	inputRequests json.RawMessage
	result        json.RawMessage
	err           *jsonrpc.Error
}

// parseTask checks and converts a task the server sent in answer to method.
func parseTask(method string, w *taskWire) (*detailedTask, error) {
	switch {
	case w.TaskID == "" || len(w.TaskID) > maxTaskIDLen || !utf8.ValidString(w.TaskID) ||
		strings.ContainsFunc(w.TaskID, unicode.IsControl): // it goes into headers and terminals
		return nil, fmt.Errorf("%w: %s: the task has no usable taskId", mcpclient.ErrMalformedResult, method)
	case w.Status != Working && w.Status != InputRequired && w.Status != Completed &&
		w.Status != Failed && w.Status != Cancelled:
		return nil, fmt.Errorf("%w: %s: unknown task status %q", mcpclient.ErrMalformedResult, method, clip(w.Status, 40))
	}
	d := &detailedTask{
		task: Task{
			ID: w.TaskID, Status: w.Status, StatusMessage: w.StatusMessage,
			CreatedAt: w.CreatedAt, LastUpdatedAt: w.LastUpdatedAt,
			TTL:          millis(w.TTLMs, w.TTL),
			PollInterval: millis(w.PollIntervalMs, w.PollInterval),
		},
		inputRequests: w.InputRequests, result: w.Result, err: w.Error,
	}
	return d, nil
}

// millis converts a count of milliseconds, the first of the two given,
// to a duration; absent, null, negative or absurd is zero.
func millis(a, b *float64) time.Duration {
	v := a
	if v == nil {
		v = b
	}
	if v == nil || *v <= 0 || *v > float64(100*365*24*time.Hour/time.Millisecond) {
		return 0
	}
	return time.Duration(*v * float64(time.Millisecond))
}

// getTask sends one tasks/get, its Mcp-Name the task id.
func getTask(ctx context.Context, s *mcpclient.Session, id string) (*detailedTask, error) {
	var w taskWire
	if err := ext.SessionOf(s).CallNamed(ctx, methodTasksGet, id, idParams{id}, &w); err != nil {
		return nil, err
	}
	d, err := parseTask(methodTasksGet, &w)
	if err == nil && d.task.ID != id {
		err = fmt.Errorf("%w: tasks/get for %q answered for another task", mcpclient.ErrMalformedResult, clip(id, 64))
	}
	return d, err
}

// taskDriver follows one task: the bounds on how long and how often it
// is polled, and the caller's status callback.
type taskDriver struct {
	st       *sessionTasks
	task     Task
	start    time.Time
	ownLimit bool // the caller set no deadline: MaxWait applies
	report   func(Task)
	reported bool
	// pollFirst skips the wait before the first poll: Await on a
	// task the session has not seen.
	pollFirst bool
	// notices carries the task's notifications/tasks/status, if the
	// generation sends them; nil otherwise.
	notices <-chan Task
}

// newDriver starts following t. One known only by its id (pollFirst) is
// polled before anything is reported of it.
func (st *sessionTasks) newDriver(ctx context.Context, t *Task, pollFirst bool) *taskDriver {
	_, hasDeadline := ctx.Deadline()
	report, _ := ctx.Value(statusKey{}).(func(Task))
	d := &taskDriver{st: st, start: time.Now(), ownLimit: !hasDeadline, report: report, pollFirst: pollFirst}
	if pollFirst {
		d.task = *t
	} else {
		d.observe(t)
	}
	return d
}

// observe takes a new state of the task and reports it when it differs
// from the last one reported.
func (d *taskDriver) observe(t *Task) {
	changed := !d.reported || t.Status != d.task.Status || t.StatusMessage != d.task.StatusMessage
	d.task = *t
	if changed && d.report != nil {
		d.reported = true
		d.report(*t)
	}
}

// deadline is when the task is given up: its TTL after it was seen
// created (the SEP's backstop), or MaxWait when the caller set no
// deadline; zero for neither.
func (d *taskDriver) deadline() time.Time {
	var dl time.Time
	if d.task.TTL > 0 {
		dl = d.start.Add(d.task.TTL)
	}
	if d.ownLimit {
		if w := d.start.Add(d.st.opts.maxWait()); dl.IsZero() || w.Before(dl) {
			dl = w
		}
	}
	return dl
}

// pollDelay is the server's suggested interval within the session's
// bounds.
func (d *taskDriver) pollDelay() time.Duration {
	o := &d.st.opts
	p := d.task.PollInterval
	if p <= 0 {
		p = defaultTaskPollPeriod
	}
	return min(max(p, o.minPoll()), o.maxPoll())
}

// wait sleeps until the next poll, or until a status notice comes,
// which it returns. It returns ctx's error when ctx ends and an *Error
// matching ErrExpired past the deadline.
func (d *taskDriver) wait(ctx context.Context) (*Task, error) {
	if d.pollFirst {
		d.pollFirst = false
		return nil, nil
	}
	delay := d.pollDelay()
	if dl := d.deadline(); !dl.IsZero() {
		left := time.Until(dl)
		if left <= 0 {
			return nil, &Error{Task: d.task, Err: ErrExpired}
		}
		delay = min(delay, left)
	}
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
		return nil, nil
	case notice := <-d.notices:
		return &notice, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// boundedContext is ctx limited by the task's deadline, for a wait that
// has no timeout of its own (tasks/result holds until the task ends).
func (d *taskDriver) boundedContext(ctx context.Context) (context.Context, context.CancelFunc) {
	dl := d.deadline()
	if dl.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, dl)
}
