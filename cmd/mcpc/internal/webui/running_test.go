package webui

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
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
