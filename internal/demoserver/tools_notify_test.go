package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestSlowToolProgress(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, token := range []string{`"tok-1"`, `42`} {
		params := json.RawMessage(`{"name":"slow","arguments":{"steps":3,"delayMs":1},"_meta":{"progressToken":` + token + `}}`)
		var res toolResultWire
		if err := c.call("tools/call", params, &res); err != nil {
			t.Fatal(err)
		}
		if got := res.text(t); got != "done after 3 steps" {
			t.Errorf("result %q", got)
		}
		// Progress notifications were written before the response.
		for i := 1; i <= 3; i++ {
			n := c.nextNote()
			want := fmt.Sprintf(`{"progressToken":%s,"progress":%d,"total":3,"message":"step %d of 3"}`, token, i, i)
			if n.Method != "notifications/progress" || string(n.Params) != want {
				t.Errorf("notification %s %s, want notifications/progress %s", n.Method, n.Params, want)
			}
		}
	}
	// Without a token there is no progress; the defaults are 5 steps.
	if got := c.mustCallTool("slow", `{"delayMs":0}`).text(t); got != "done after 5 steps" {
		t.Errorf("result %q", got)
	}
	c.noNote(20 * time.Millisecond)
}

func TestCancelUnknownRequestIsHarmless(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, params := range []string{`{"requestId":99}`, `{"requestId":"x"}`, `{}`, `{"requestId":{}}`} {
		if err := c.conn.Notify(context.Background(), "notifications/cancelled", json.RawMessage(params)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.call("ping", nil, nil); err != nil {
		t.Fatal(err)
	}
	c.serverLog.waitFor(t, "cancel requested", "id=99", "found=false")
	c.serverLog.waitFor(t, "ignoring malformed cancellation")
}

func TestTouchTool(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	if got := c.mustCallTool("touch", `{"uri":"demo://docs/readme"}`).text(t); got != "not subscribed to demo://docs/readme" {
		t.Errorf("touch before subscribing: %q", got)
	}
	if err := c.call("resources/subscribe", map[string]string{"uri": readmeURI}, nil); err != nil {
		t.Fatal(err)
	}
	if got := c.mustCallTool("touch", `{"uri":"demo://docs/readme"}`).text(t); got != "notified the subscriber of demo://docs/readme" {
		t.Errorf("touch: %q", got)
	}
	if n := c.nextNote(); n.Method != "notifications/resources/updated" || string(n.Params) != `{"uri":"demo://docs/readme"}` {
		t.Errorf("notification %s %s", n.Method, n.Params)
	}
	if err := c.call("resources/unsubscribe", map[string]string{"uri": readmeURI}, nil); err != nil {
		t.Fatal(err)
	}
	if got := c.mustCallTool("touch", `{"uri":"demo://docs/readme"}`).text(t); !strings.HasPrefix(got, "not subscribed") {
		t.Errorf("touch after unsubscribing: %q", got)
	}
	c.noNote(20 * time.Millisecond)
}
