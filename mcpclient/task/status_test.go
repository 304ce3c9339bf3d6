package task

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// A notifications/tasks/status that says the task ended is taken at once:
// the driver goes to tasks/result without waiting out the poll interval
// (an hour here, capped at the session's 30 s; the test's context allows
// 5 s), and without a tasks/get. A notice for another task changes
// nothing, and every notice still reaches OnNotification.
func TestLegacyTaskStatusNotice(t *testing.T) {
	f := legacyTaskServer(t, tasksCaps, `[{"name":"slow","inputSchema":{},"execution":{"taskSupport":"required"}}]`)
	slowPoll := `,"pollInterval":3600000`
	f.result("tools/call", `{"task":`+legacyTask("t1", "working", "")[:len(legacyTask("t1", "working", ""))-1]+slowPoll+`}}`)
	f.result("tasks/result", `{"content":[{"type":"text","text":"done early"}]}`)
	var gets atomic.Int64
	f.handle("tasks/get", func(context.Context, *jsonrpc.Request) (any, error) {
		gets.Add(1)
		return json.RawMessage(legacyTask("t1", "working", "")), nil
	})
	var seen atomic.Int64
	var statuses []string
	opts := &mcpclient.Options{Tasks: &Options{}, OnNotification: func(method string, _ json.RawMessage) {
		if method == "notifications/tasks/status" {
			seen.Add(1)
		}
	}}
	s := connect(t, f, opts)
	st, _ := of(s)
	if _, err := mcpclient.Collect(s.Tools(ctx5s(t))); err != nil {
		t.Fatal(err)
	}
	go func() {
		waitFor(t, "the driver watches t1", func() bool {
			st.mu.Lock()
			defer st.mu.Unlock()
			return st.watching["t1"] != nil
		})
		ctx := context.Background()
		f.conn.Notify(ctx, "notifications/tasks/status", json.RawMessage(legacyTask("other", "completed", "")))
		f.conn.Notify(ctx, "notifications/tasks/status", json.RawMessage(`{"taskId":"t1","status":"bogus"}`))
		f.conn.Notify(ctx, "notifications/tasks/status", json.RawMessage(legacyTask("t1", "completed", `,"statusMessage":"finished"`)))
	}()
	ctx := WithStatus(ctx5s(t), func(task Task) { statuses = append(statuses, task.Status+":"+task.StatusMessage) })
	res, err := s.CallTool(ctx, "slow", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "done early" || gets.Load() != 0 {
		t.Errorf("result %q after %d tasks/get; want the result at the notice, with no poll", res.Text(), gets.Load())
	}
	if len(statuses) != 2 || statuses[1] != "completed:finished" {
		t.Errorf("statuses reported: %q", statuses)
	}
	waitFor(t, "every notice reaches OnNotification", func() bool { return seen.Load() == 3 })
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.watching) != 0 {
		t.Errorf("still watching %d tasks after the call", len(st.watching))
	}
}
