package task

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// A client that takes part in tasks MUST declare the tasks capability;
// one whose host did not opt in declares nothing of tasks.
func TestLegacyTasksCapabilityDeclaredOnlyWhenEnabled(t *testing.T) {
	for _, tasks := range []*Options{nil, {}} {
		f := legacyTaskServer(t, tasksCaps, `[]`)
		opts := &mcpclient.Options{}
		if tasks != nil { // a nil *Options in the interface would still be a runner
			opts.Tasks = tasks
		}
		connect(t, f, opts)
		caps, _ := f.ParamsOf("initialize")[0]["capabilities"].(map[string]any)
		_, declared := caps["tasks"]
		if _, ext := caps["extensions"]; declared != (tasks != nil) || ext {
			t.Errorf("Tasks %v: capabilities %v", tasks, caps)
		}
	}
}

// tasks/list pages: cursors are opaque tokens, sent back untouched; a
// repeated one stops the iteration.
func TestLegacyTaskListPagination(t *testing.T) {
	f := legacyTaskServer(t, tasksCaps, `[]`)
	const cursor = `c/1?x=%20+ü`
	f.Handle("tasks/list", func(_ context.Context, r *jsonrpc.Request) (any, error) {
		if strings.Contains(string(r.Params), "cursor") {
			return json.RawMessage(`{"tasks":[` + legacyTask("b", "completed", "") + `],"nextCursor":"` + cursor + `"}`), nil
		}
		return json.RawMessage(`{"tasks":[` + legacyTask("a", "working", "") + `],"nextCursor":"` + cursor + `"}`), nil
	})
	s := connect(t, f, &mcpclient.Options{Tasks: fastTasks()})
	tasks, err := mcpclient.Collect(All(ctx5s(t), s))
	if !errors.Is(err, mcpclient.ErrPagination) || len(tasks) != 2 || tasks[0].ID != "a" || tasks[1].Status != Completed {
		t.Fatalf("%v %v", tasks, err)
	}
	if got := f.ParamsOf("tasks/list")[1]["cursor"]; got != cursor {
		t.Errorf("cursor sent back as %q", got)
	}
}

// The server's polling interval is honoured within bounds, both ways.
func TestTaskPollIntervalIsCapped(t *testing.T) {
	for _, tc := range []struct {
		server, want time.Duration
		opts         Options
	}{
		{0, time.Second, Options{}},
		{time.Nanosecond, 100 * time.Millisecond, Options{}},
		{2 * time.Second, 2 * time.Second, Options{}},
		{1000 * time.Hour, 30 * time.Second, Options{}},
		{time.Hour, 5 * time.Second, Options{MaxPollInterval: 5 * time.Second}},
	} {
		d := &taskDriver{st: &sessionTasks{opts: tc.opts}, task: Task{PollInterval: tc.server}}
		if got := d.pollDelay(); got != tc.want {
			t.Errorf("server %v: polls every %v, want %v", tc.server, got, tc.want)
		}
	}
	huge := 1e300
	if got := millis(&huge, nil); got != 0 {
		t.Errorf("an absurd interval became %v", got)
	}
}

// The handle API needs the session's task state: without Options.Tasks
// Await, Cancel and All send nothing and say why.
func TestHandleAPINeedsTasks(t *testing.T) {
	f := legacyTaskServer(t, tasksCaps, `[]`)
	s := connect(t, f, &mcpclient.Options{})
	_, awaitErr := Await(ctx5s(t), s, "t1")
	_, listErr := mcpclient.Collect(All(ctx5s(t), s))
	for _, err := range []error{awaitErr, Cancel(ctx5s(t), s, "t1"), listErr} {
		if !errors.Is(err, ErrNotEnabled) {
			t.Errorf("got %v, want ErrNotEnabled", err)
		}
	}
	for _, m := range []string{"tasks/get", "tasks/cancel", "tasks/list"} {
		if n := f.Count(m); n != 0 {
			t.Errorf("%d %s sent", n, m)
		}
	}
}
