//go:build go1.25

package task

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// The tests in this file run in a synctest bubble, so the driver's
// waits — the server's polling interval, a task's TTL, Options.MaxWait —
// pass on the bubble's clock, at their real lengths, the moment every
// goroutine waits.

// bubbleConnect connects a session to f inside the bubble; stop ends both.
func bubbleConnect(t *testing.T, f *fakemcp.Server, opts *mcpclient.Options) (s *mcpclient.Session, stop func()) {
	t.Helper()
	a, b := transport.Pipe()
	f.Serve(b)
	s, err := mcpclient.Connect(context.Background(), a, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, func() { s.Close(); f.Conn.Close() }
}

// slowTask is a handshake-era task that polls every 5 s and lives 60 s.
func slowTask(status string) string {
	return `{"taskId":"t1","status":"` + status + `","createdAt":"","lastUpdatedAt":"","ttl":60000,"pollInterval":5000}`
}

// The server's polling interval is what the driver waits between polls:
// created, then two polls 5 s apart, the second of which finds the task
// done.
func TestTaskPolledAtTheServersInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := legacyTaskServer(t, tasksCaps, `[{"name":"slow","inputSchema":{},"execution":{"taskSupport":"required"}}]`)
		f.Result("tools/call", `{"task":`+slowTask(Working)+`}`)
		f.Handle("tasks/get", sequence(slowTask(Working), slowTask(Completed)))
		f.Result("tasks/result", `{"content":[{"type":"text","text":"done"}]}`)
		s, stop := bubbleConnect(t, f, &mcpclient.Options{Tasks: &Options{}})
		defer stop()
		start := time.Now()
		res, err := s.CallTool(context.Background(), "slow", nil)
		if err != nil || res.Text() != "done" {
			t.Fatalf("%+v %v", res, err)
		}
		if took, polls := time.Since(start), f.Count("tasks/get"); took != 10*time.Second || polls != 2 {
			t.Errorf("%d polls in %v, want 2 in 10s", polls, took)
		}
	})
}

// The TTL is a backstop: a task still working when its TTL has passed is
// given up (and cancelled), however the server answers its polls; so is
// one past Options.MaxWait when the caller set no deadline.
func TestTaskGivenUpAtItsTTLOrMaxWait(t *testing.T) {
	for _, tc := range []struct {
		name    string
		maxWait time.Duration
		want    time.Duration
	}{
		{"ttl", 0, time.Minute},
		{"max wait", 12 * time.Second, 12 * time.Second},
	} {
		synctest.Test(t, func(t *testing.T) {
			f := legacyTaskServer(t, tasksCaps, `[{"name":"slow","inputSchema":{},"execution":{"taskSupport":"required"}}]`)
			f.Result("tools/call", `{"task":`+slowTask(Working)+`}`)
			f.Result("tasks/get", slowTask(Working))
			f.Result("tasks/cancel", slowTask(Cancelled))
			s, stop := bubbleConnect(t, f, &mcpclient.Options{Tasks: &Options{MaxWait: tc.maxWait}})
			defer stop()
			start := time.Now()
			_, err := s.CallTool(context.Background(), "slow", nil)
			if !errors.Is(err, ErrExpired) || time.Since(start) != tc.want {
				t.Errorf("%s: %v after %v, want ErrExpired after %v", tc.name, err, time.Since(start), tc.want)
			}
			synctest.Wait() // the background tasks/cancel has been answered
			if f.Count("tasks/cancel") != 1 {
				t.Errorf("%s: the expired task was not cancelled", tc.name)
			}
		})
	}
}
