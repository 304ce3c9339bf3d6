package webui

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/task"
)

// A call's id is the page's own and checked; progress and Cancel name a
// call in flight or are refused.
func TestRunningCallIDs(t *testing.T) {
	leakcheck.Check(t)
	srv, _ := startPage(t, false)
	u, _ := url.Parse(srv.URL())
	origin := "http://" + u.Host
	for _, tc := range []struct {
		path, body string
		want       int
	}{
		{"api/call", `{"from":"person","name":"mcp__apps__clock","id":"ok-1"}`, 200},
		{"api/call", `{"from":"person","name":"mcp__apps__clock","id":"ok-1"}`, 200}, // the first is over: its id is free again
		{"api/call", `{"from":"person","name":"mcp__apps__clock","id":"no spaces"}`, 409},
		{"api/call", `{"from":"person","name":"mcp__apps__clock","id":"` + strings.Repeat("x", 65) + `"}`, 409},
		{"api/cancel", `{"id":"ok-1"}`, 404},
		{"api/cancel", `{}`, 404},
	} {
		if resp, out := post(t, srv.URL()+tc.path, origin, "application/json", tc.body); resp.StatusCode != tc.want {
			t.Errorf("%s %s: status %d, want %d (%v)", tc.path, tc.body, resp.StatusCode, tc.want, out)
		}
	}
	if got := get(t, srv.URL()+"api/progress?id=ok-1", "").StatusCode; got != 404 {
		t.Errorf("progress of a call not in flight: %d", got)
	}
	var rc runningCalls
	for i := range maxRunning {
		if _, _, _, err := rc.start(context.Background(), fmt.Sprintf("c%d", i)); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if _, _, _, err := rc.start(context.Background(), "one-more"); err != errBusy {
		t.Errorf("call %d: err %v, want errBusy", maxRunning+1, err)
	}
}

// What a server reports of a call in flight is its text, bounded as the
// inbox's: a progress message or a task status of megabytes is cut.
func TestRunningReportsAreBounded(t *testing.T) {
	var c running
	long := strings.Repeat("é", inboxText)
	c.report(mcpclient.Progress{Progress: 1, Message: long})
	c.reportTask(task.Task{ID: "t", Status: "working", StatusMessage: long})
	if n := len(c.progress.Message); n > inboxText+len("…") {
		t.Errorf("progress message kept: %d bytes", n)
	}
	if n := len(c.task.StatusMessage); n > inboxText+len("…") {
		t.Errorf("task status message kept: %d bytes", n)
	}
}
