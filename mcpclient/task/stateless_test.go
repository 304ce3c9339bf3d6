package task

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// Conformance tests of the client's side of the tasks extension
// (SEP-2663, io.modelcontextprotocol/tasks) against a scripted stateless
// server.

// modernTask is a task in the extension's shape; extra adds members.
func modernTask(id, status, extra string) string {
	return `{"taskId":"` + id + `","status":"` + status + `","createdAt":"2026-07-28T10:30:00Z",` +
		`"lastUpdatedAt":"2026-07-28T10:30:00Z","ttlMs":60000,"pollIntervalMs":1` + extra + `}`
}

func created(id string) string {
	return `{"resultType":"task",` + strings.TrimPrefix(modernTask(id, "working", ""), "{")
}

func polled(id, status, extra string) string {
	return `{"resultType":"complete",` + strings.TrimPrefix(modernTask(id, status, extra), "{")
}

// The client declares the extension per request when the host opted in,
// and then MUST handle either a CallToolResult or a CreateTaskResult.
func TestStatelessTaskOrResult(t *testing.T) {
	f := modernServer(t)
	f.Handle("tools/call", func(_ context.Context, r *jsonrpc.Request) (any, error) {
		if strings.Contains(string(r.Params), `"name":"now"`) {
			return json.RawMessage(`{"resultType":"complete","content":[{"type":"text","text":"at once"}]}`), nil
		}
		return json.RawMessage(created("m1")), nil
	})
	f.Handle("tasks/get", sequence(polled("m1", "working", ""), polled("m1", "completed",
		`,"result":{"content":[{"type":"text","text":"later"}],"isError":true}`)))
	s := connect(t, f, &mcpclient.Options{Tasks: fastTasks()})
	for name, want := range map[string]string{"now": "at once", "later": "later"} {
		res, err := s.CallTool(ctx5s(t), name, nil)
		if err != nil || res.Text() != want {
			t.Errorf("%s: %+v %v", name, res, err)
		}
	}
	meta := f.ParamsOf("tools/call")[0]["_meta"].(map[string]any)
	caps := meta["io.modelcontextprotocol/clientCapabilities"].(map[string]any)
	if diff := cmp.Diff(map[string]any{mcpext.Tasks: map[string]any{}}, caps["extensions"]); diff != "" {
		t.Errorf("declared extensions (-want +got):\n%s", diff)
	}
	if _, legacy := caps["tasks"]; legacy {
		t.Error("the stateless era declared 2025-11-25's tasks capability")
	}
	if p := f.ParamsOf("tasks/get")[0]; p["taskId"] != "m1" {
		t.Errorf("tasks/get params %v", p)
	}
}

// A task answer to a request that does not support tasks, or to a client
// that did not declare the extension, is an invalid response.
func TestStatelessTaskWhereNoneMayCome(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tasks *Options
		call  func(*mcpclient.Session) error
	}{
		{"tools/call without the extension", nil, func(s *mcpclient.Session) error { _, err := s.CallTool(ctx5s(t), "x", nil); return err }},
		{"prompts/get", fastTasks(), func(s *mcpclient.Session) error { _, err := s.GetPrompt(ctx5s(t), "p", nil); return err }},
		{"resources/read", fastTasks(), func(s *mcpclient.Session) error { _, err := s.ReadResource(ctx5s(t), "a://b"); return err }},
	} {
		f := modernServer(t)
		for _, m := range []string{"tools/call", "prompts/get", "resources/read"} {
			f.Result(m, created("bad"))
		}
		opts := &mcpclient.Options{}
		if tc.tasks != nil {
			opts.Tasks = tc.tasks
		}
		s := connect(t, f, opts)
		if err := tc.call(s); !errors.Is(err, mcpclient.ErrMalformedResult) {
			t.Errorf("%s: got %v, want a malformed result", tc.name, err)
		}
		if f.Count("tasks/get") != 0 {
			t.Errorf("%s: polled a task it should have refused", tc.name)
		}
		if tc.tasks == nil && strings.Contains(string(f.Request("tools/call").Params), mcpext.Tasks) {
			t.Errorf("%s: declared the extension without Options.Tasks", tc.name)
		}
	}
}

// input_required: the client MUST inspect inputRequests, answers each
// through the handler it would use for the same request sent directly,
// and answers each key once however many polls repeat it, with
// tasks/update.
func TestStatelessTaskInputsAnsweredOnce(t *testing.T) {
	f := modernServer(t)
	f.Result("tools/call", created("m2"))
	elicit := `"a":{"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object",` +
		`"properties":{"n":{"type":"string","default":"Ada"}}}}}`
	roots := `"b":{"method":"roots/list"}`
	f.Handle("tasks/get", sequence(
		polled("m2", "input_required", `,"inputRequests":{`+elicit+`}`),
		polled("m2", "input_required", `,"inputRequests":{`+elicit+`}`), // not taken in yet
		polled("m2", "input_required", `,"inputRequests":{`+elicit+`,`+roots+`}`),
		polled("m2", "completed", `,"result":{"content":[{"type":"text","text":"ok"}]}`)))
	f.Result("tasks/update", `{"resultType":"complete"}`)
	var mu sync.Mutex
	asked := map[string]int{}
	s := connect(t, f, &mcpclient.Options{Tasks: fastTasks(),
		Elicitation: func(context.Context, *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
			mu.Lock()
			asked["elicit"]++
			mu.Unlock()
			return &mcpclient.ElicitResult{Action: "accept"}, nil
		},
		Roots: func(context.Context) ([]mcpclient.Root, error) {
			mu.Lock()
			asked["roots"]++
			mu.Unlock()
			return []mcpclient.Root{{URI: "file:///w"}}, nil
		}})
	res, err := s.CallTool(ctx5s(t), "t", nil)
	if err != nil || res.Text() != "ok" {
		t.Fatalf("%+v %v", res, err)
	}
	if diff := cmp.Diff(map[string]int{"elicit": 1, "roots": 1}, asked); diff != "" {
		t.Errorf("handler calls (-want +got):\n%s", diff)
	}
	updates := f.ParamsOf("tasks/update")
	if len(updates) != 2 {
		t.Fatalf("%d tasks/update, want 2", len(updates))
	}
	want := []map[string]any{
		{"taskId": "m2", "inputResponses": map[string]any{"a": map[string]any{"action": "accept", "content": map[string]any{"n": "Ada"}}}},
		{"taskId": "m2", "inputResponses": map[string]any{"b": map[string]any{"roots": []any{map[string]any{"uri": "file:///w"}}}}},
	}
	for i := range updates {
		delete(updates[i], "_meta")
	}
	if diff := cmp.Diff(want, updates); diff != "" {
		t.Errorf("tasks/update params (-want +got):\n%s", diff)
	}
}

// A failed task's error surfaces with its code; cancelled is
// ErrCancelled; a completed task without its result, or a poll that
// asks for too much at once, is a protocol error (and the task is
// cancelled).
func TestStatelessTaskOutcomes(t *testing.T) {
	many := make([]string, maxTaskInputsPerPoll+1)
	for i := range many {
		many[i] = `"k` + strings.Repeat("x", i) + `":{"method":"roots/list"}`
	}
	for _, tc := range []struct {
		name, poll string
		check      func(error) bool
		cancelled  bool
	}{
		{"failed", polled("m", "failed", `,"error":{"code":-32603,"message":"API rate limit exceeded"}`), func(err error) bool {
			var rpcErr *jsonrpc.Error
			return errors.As(err, &rpcErr) && rpcErr.Code == -32603
		}, false},
		{"cancelled", polled("m", "cancelled", ""), func(err error) bool { return errors.Is(err, ErrCancelled) }, false},
		{"no result", polled("m", "completed", ""), func(err error) bool { return errors.Is(err, mcpclient.ErrMalformedResult) }, true},
		{"too many inputs", polled("m", "input_required", `,"inputRequests":{`+strings.Join(many, ",")+`}`),
			func(err error) bool { return errors.Is(err, mcpclient.ErrMalformedResult) }, true},
		{"unknown status", polled("m", "paused", ""), func(err error) bool { return errors.Is(err, mcpclient.ErrMalformedResult) }, true},
		{"another task", polled("other", "working", ""), func(err error) bool { return errors.Is(err, mcpclient.ErrMalformedResult) }, true},
		{"control characters", polled(`m\r\nX-Evil: 1`, "working", ""), func(err error) bool { return errors.Is(err, mcpclient.ErrMalformedResult) }, true},
	} {
		f := modernServer(t)
		f.Result("tools/call", created("m"))
		f.Result("tasks/get", tc.poll)
		f.Result("tasks/cancel", `{"resultType":"complete"}`)
		s := connect(t, f, &mcpclient.Options{Tasks: fastTasks(), Roots: func(context.Context) ([]mcpclient.Root, error) { return nil, nil }})
		if _, err := s.CallTool(ctx5s(t), "t", nil); !tc.check(err) {
			t.Errorf("%s: got %v", tc.name, err)
		}
		s.Close()
		if got := f.Count("tasks/cancel") == 1; got != tc.cancelled {
			t.Errorf("%s: cancelled %v, want %v", tc.name, got, tc.cancelled)
		}
	}
}

// Cancellation: when the caller gives up the client sends tasks/cancel
// for the task; notifications/cancelled MUST NOT be used to cancel a task.
func TestStatelessTaskCancelledWithTheCaller(t *testing.T) {
	f := modernServer(t)
	f.Result("tools/call", created("m5"))
	f.Result("tasks/get", polled("m5", "working", ""))
	f.Result("tasks/cancel", `{"resultType":"complete"}`)
	s := connect(t, f, &mcpclient.Options{Tasks: fastTasks()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := s.CallTool(WithStatus(ctx, func(Task) { cancel() }), "t", nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	s.Close()
	f.Drain() // every notice the client sent is in
	if p := f.ParamsOf("tasks/cancel"); len(p) != 1 || p[0]["taskId"] != "m5" {
		t.Errorf("tasks/cancel: %v", p)
	}
	callID, _ := f.Request("tools/call").ID.MarshalJSON()
	for _, n := range f.Notes("notifications/cancelled") {
		if strings.Contains(string(n.Params), `"requestId":`+string(callID)) {
			t.Errorf("the task was cancelled with %s", n.Params)
		}
	}
}

// The handle API: start, look, await, cancel.
func TestTaskHandleAPI(t *testing.T) {
	f := modernServer(t)
	f.Result("tools/call", created("h1"))
	f.Handle("tasks/get", sequence(polled("h1", "working", `,"statusMessage":"1 of 2"`),
		polled("h1", "completed", `,"result":{"content":[{"type":"text","text":"fin"}]}`)))
	f.Result("tasks/cancel", `{"resultType":"complete"}`)
	s := connect(t, f, &mcpclient.Options{Tasks: fastTasks()})
	task, res, err := Start(ctx5s(t), s, "t", nil)
	if err != nil || res != nil || task.ID != "h1" || task.Status != Working || task.TTL.Milliseconds() != 60000 {
		t.Fatalf("StartTool: %+v %+v %v", task, res, err)
	}
	st, err := Get(ctx5s(t), s, task.ID)
	if err != nil || st.StatusMessage != "1 of 2" {
		t.Fatalf("TaskStatus: %+v %v", st, err)
	}
	res, err = Await(ctx5s(t), s, task.ID)
	if err != nil || res.Text() != "fin" {
		t.Fatalf("AwaitTask: %+v %v", res, err)
	}
	if err := Cancel(ctx5s(t), s, task.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpclient.Collect(All(ctx5s(t), s)); err == nil {
		t.Error("All in the stateless era sent a request the extension does not have")
	}
}
