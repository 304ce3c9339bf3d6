package task

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// Conformance tests of the client's side of 2025-11-25's tasks
// (basic/utilities/tasks), one per requirement on a requestor, against a
// scripted handshake-era server.

const (
	tasksCaps   = `{"tools":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}`
	noTasksCaps = `{"tools":{}}`
)

// legacyTaskServer is a fake 2025-11-25 server declaring caps and listing
// tools (a JSON array).
func legacyTaskServer(t *testing.T, caps, tools string) *fakemcp.Server {
	f := fakemcp.New(t)
	f.Result("initialize", `{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"serverInfo":{"name":"t","version":"1"}}`)
	f.Result("tools/list", `{"tools":`+tools+`}`)
	return f
}

// legacyTask is a task in 2025-11-25's shape.
func legacyTask(id, status, extra string) string {
	return `{"taskId":"` + id + `","status":"` + status + `","createdAt":"2025-11-25T10:30:00Z",` +
		`"lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":60000,"pollInterval":1` + extra + `}`
}

// MUST NOT augment without tasks.requests.tools.call; MUST NOT for a tool
// whose taskSupport is absent or forbidden; MUST for "required".
func TestLegacyTaskAugmentationFollowsCapabilityAndTool(t *testing.T) {
	for _, tc := range []struct {
		name, caps, execution string
		tasks                 bool
		wantTask              bool
		wantErr               error
	}{
		{"no capability, required tool", noTasksCaps, `{"taskSupport":"required"}`, true, false, nil},
		{"forbidden", tasksCaps, `{"taskSupport":"forbidden"}`, true, false, nil},
		{"absent", tasksCaps, `{}`, true, false, nil},
		{"optional with tasks", tasksCaps, `{"taskSupport":"optional"}`, true, true, nil},
		{"optional without tasks", tasksCaps, `{"taskSupport":"optional"}`, false, false, nil},
		{"required", tasksCaps, `{"taskSupport":"required"}`, true, true, nil},
		{"required without tasks", tasksCaps, `{"taskSupport":"required"}`, false, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := legacyTaskServer(t, tc.caps, `[{"name":"x","inputSchema":{},"execution":`+tc.execution+`}]`)
			f.Handle("tools/call", func(_ context.Context, r *jsonrpc.Request) (any, error) {
				if strings.Contains(string(r.Params), `"task"`) {
					return json.RawMessage(`{"task":` + legacyTask("t1", "completed", "") + `}`), nil
				}
				return json.RawMessage(`{"content":[{"type":"text","text":"plain"}]}`), nil
			})
			f.Result("tasks/result", `{"content":[{"type":"text","text":"from task"}]}`)
			opts := &mcpclient.Options{}
			if tc.tasks {
				opts.Tasks = fastTasks()
			}
			s := connect(t, f, opts)
			if _, err := mcpclient.Collect(s.Tools(ctx5s(t))); err != nil {
				t.Fatal(err)
			}
			res, err := s.CallTool(ctx5s(t), "x", nil)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || f.Count("tools/call") != 0 {
					t.Fatalf("got %v after %d calls, want %v and none sent", err, f.Count("tools/call"), tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, asked := f.ParamsOf("tools/call")[0]["task"]
			want := map[bool]string{true: "from task", false: "plain"}[tc.wantTask]
			if asked != tc.wantTask || res.Text() != want {
				t.Errorf("asked for a task: %v, result %q; want %v, %q", asked, res.Text(), tc.wantTask, want)
			}
		})
	}
}

// A requestor MUST NOT rely on notifications/tasks/status: it polls
// tasks/get (at the server's interval) and takes the outcome from
// tasks/result; the status callback sees each change once.
func TestLegacyTaskPolledToItsResult(t *testing.T) {
	f := legacyTaskServer(t, tasksCaps, `[{"name":"slow","inputSchema":{},"execution":{"taskSupport":"required"}}]`)
	f.Result("tools/call", `{"task":`+legacyTask("t1", "working", "")+`}`)
	f.Handle("tasks/get", sequence(legacyTask("t1", "working", ""), legacyTask("t1", "working", `,"statusMessage":"half"`),
		legacyTask("t1", "completed", "")))
	f.Result("tasks/result", `{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t1"}}}`)
	s := connect(t, f, &mcpclient.Options{Tasks: &Options{MinPollInterval: time.Millisecond, TTL: 5 * time.Second}})
	var seen []string
	ctx := WithStatus(ctx5s(t), func(t Task) { seen = append(seen, t.Status+":"+t.StatusMessage) })
	res, err := s.CallTool(ctx, "slow", map[string]any{"n": 1})
	if err != nil || res.Text() != "done" {
		t.Fatalf("%+v %v", res, err)
	}
	if diff := cmp.Diff([]string{"working:", "working:half", "completed:"}, seen); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	call := f.ParamsOf("tools/call")[0]
	if diff := cmp.Diff(map[string]any{"ttl": float64(5000)}, call["task"]); diff != "" {
		t.Errorf("params.task (-want +got):\n%s", diff)
	}
	for _, p := range append(f.ParamsOf("tasks/get"), f.ParamsOf("tasks/result")...) {
		if p["taskId"] != "t1" {
			t.Errorf("a task request named %v", p["taskId"])
		}
	}
	if n := f.Count("tasks/get"); n != 3 {
		t.Errorf("%d polls, want 3", n)
	}
}

// input_required: the requestor calls tasks/result, and the server's
// requests for the task meanwhile go to the session's handlers; every
// answer related to a task MUST carry io.modelcontextprotocol/related-task.
func TestLegacyTaskInputGoesToTheHandlers(t *testing.T) {
	f := legacyTaskServer(t, tasksCaps, `[{"name":"ask","inputSchema":{},"execution":{"taskSupport":"optional"}}]`)
	f.Result("tools/call", `{"task":`+legacyTask("t9", "working", "")+`}`)
	f.Handle("tasks/get", sequence(legacyTask("t9", "input_required", "")))
	var elicited json.RawMessage
	f.Handle("tasks/result", func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
		err := f.Conn.Call(ctx, "elicitation/create", json.RawMessage(`{"message":"who?","requestedSchema":{"type":"object",`+
			`"properties":{"name":{"type":"string"}}},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t9"}}}`), &elicited)
		if err != nil {
			return nil, err
		}
		return json.RawMessage(`{"content":[{"type":"text","text":"hello"}]}`), nil
	})
	calls := 0
	s := connect(t, f, &mcpclient.Options{Tasks: fastTasks(), Elicitation: func(context.Context, *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
		calls++
		return &mcpclient.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
	}})
	res, err := s.CallTool(ctx5s(t), "ask", nil)
	if err != nil || res.Text() != "hello" {
		t.Fatalf("%+v %v", res, err)
	}
	var got struct {
		Action string
		Meta   map[string]map[string]string `json:"_meta"`
	}
	json.Unmarshal(elicited, &got)
	if calls != 1 || got.Action != "accept" || got.Meta[relatedTaskKey]["taskId"] != "t9" {
		t.Errorf("handler calls %d, answer %s", calls, elicited)
	}
}

// A failed task's JSON-RPC error (tasks/result returns it) surfaces with
// its code; a cancelled task is ErrCancelled.
func TestLegacyTaskFailures(t *testing.T) {
	f := legacyTaskServer(t, tasksCaps, `[{"name":"f","inputSchema":{},"execution":{"taskSupport":"required"}},`+
		`{"name":"c","inputSchema":{},"execution":{"taskSupport":"required"}}]`)
	f.Handle("tools/call", func(_ context.Context, r *jsonrpc.Request) (any, error) {
		if strings.Contains(string(r.Params), `"name":"f"`) {
			return json.RawMessage(`{"task":` + legacyTask("tf", "failed", `,"statusMessage":"rate limit"`) + `}`), nil
		}
		return json.RawMessage(`{"task":` + legacyTask("tc", "cancelled", "") + `}`), nil
	})
	f.Handle("tasks/result", fail(-32603, "API rate limit exceeded"))
	s := connect(t, f, &mcpclient.Options{Tasks: fastTasks()})
	_, err := s.CallTool(ctx5s(t), "f", nil)
	var rpcErr *jsonrpc.Error
	var taskErr *Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32603 || !errors.As(err, &taskErr) || taskErr.Task.ID != "tf" {
		t.Errorf("failed task: %v", err)
	}
	if _, err := s.CallTool(ctx5s(t), "c", nil); !errors.Is(err, ErrCancelled) {
		t.Errorf("cancelled task: %v", err)
	}
}

// When the caller gives up, the task is cancelled with tasks/cancel — if
// the server declared tasks.cancel — and the caller gets ctx's error.
func TestLegacyTaskCancelledWithTheCaller(t *testing.T) {
	for _, caps := range []string{tasksCaps, `{"tasks":{"requests":{"tools":{"call":{}}}}}`} {
		f := legacyTaskServer(t, caps, `[{"name":"slow","inputSchema":{},"execution":{"taskSupport":"required"}}]`)
		f.Result("tools/call", `{"task":`+legacyTask("t2", "working", "")+`}`)
		// The caller gives up once the task is being polled.
		ctx, cancel := context.WithCancel(context.Background())
		f.Handle("tasks/get", func(context.Context, *jsonrpc.Request) (any, error) {
			cancel()
			return json.RawMessage(legacyTask("t2", "working", "")), nil
		})
		f.Result("tasks/cancel", legacyTask("t2", "cancelled", ""))
		s := connect(t, f, &mcpclient.Options{Tasks: fastTasks()})
		_, err := s.CallTool(ctx, "slow", nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v", err)
		}
		s.Close() // waits for the background cancellation
		want := 0
		if caps == tasksCaps {
			want = 1
		}
		if n := f.Count("tasks/cancel"); n != want {
			t.Errorf("caps %s: %d tasks/cancel, want %d", caps, n, want)
		}
		cancel()
	}
}
