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
	f.Result("tools/call", `{"task":`+legacyTask("t1", "working", "")[:len(legacyTask("t1", "working", ""))-1]+slowPoll+`}}`)
	f.Result("tasks/result", `{"content":[{"type":"text","text":"done early"}]}`)
	var gets atomic.Int64
	f.Handle("tasks/get", func(context.Context, *jsonrpc.Request) (any, error) {
		gets.Add(1)
		return json.RawMessage(legacyTask("t1", "working", "")), nil
	})
	seen := make(chan struct{}, 3)
	var statuses []string
	// The host's log callback is busy until the call is over: the notices
	// reach the task all the same (the session hears them on its read
	// loop), and OnNotification after it.
	busy := make(chan struct{})
	opts := &mcpclient.Options{Tasks: &Options{}, OnNotification: func(method string, _ json.RawMessage) {
		if method == "notifications/tasks/status" {
			seen <- struct{}{}
		}
	}, OnLog: func(mcpclient.LogMessage) { <-busy }}
	s := connect(t, f, opts)
	st, _ := of(s)
	if _, err := mcpclient.Collect(s.Tools(ctx5s(t))); err != nil {
		t.Fatal(err)
	}
	// The driver watches for notices before it reports the task's first
	// state: the server sends them once the client has seen it created.
	sent := make(chan struct{})
	notify := func() {
		defer close(sent)
		ctx := context.Background()
		f.Conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "working on it"})
		f.Conn.Notify(ctx, "notifications/tasks/status", json.RawMessage(legacyTask("other", "completed", "")))
		f.Conn.Notify(ctx, "notifications/tasks/status", json.RawMessage(`{"taskId":"t1","status":"bogus"}`))
		f.Conn.Notify(ctx, "notifications/tasks/status", json.RawMessage(legacyTask("t1", "completed", `,"statusMessage":"finished"`)))
	}
	ctx := WithStatus(ctx5s(t), func(task Task) {
		if statuses = append(statuses, task.Status+":"+task.StatusMessage); len(statuses) == 1 {
			go notify()
		}
	})
	res, err := s.CallTool(ctx, "slow", nil)
	if err != nil {
		t.Fatal(err)
	}
	<-sent
	close(busy)
	if res.Text() != "done early" || gets.Load() != 0 {
		t.Errorf("result %q after %d tasks/get; want the result at the notice, with no poll", res.Text(), gets.Load())
	}
	if len(statuses) != 2 || statuses[1] != "completed:finished" {
		t.Errorf("statuses reported: %q", statuses)
	}
	for range 3 { // every notice reaches OnNotification
		select {
		case <-seen:
		case <-ctx.Done():
			t.Fatal("not every notice reached OnNotification")
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.watching) != 0 {
		t.Errorf("still watching %d tasks after the call", len(st.watching))
	}
}
