package task

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// demoTasks connects, in era, to the demo server, which speaks both.
func demoTasks(t *testing.T, era mcpclient.Era, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	leakcheck.Check(t)
	a, b := transport.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		demoserver.New(&demoserver.Options{Stateless: true}).Serve(ctx, b)
		close(served)
	}()
	opts.Era = era
	s, err := mcpclient.Connect(ctx5s(t), a, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); stop(); <-served })
	return s
}

// The demo server's research tool, as a task in each era: to its result,
// through a question to the user, to a failure, and cancelled.
func TestDemoServerTaskBothEras(t *testing.T) {
	for _, era := range []mcpclient.Era{mcpclient.EraHandshake, mcpclient.EraStateless} {
		t.Run(era.String(), func(t *testing.T) {
			asked := 0
			s := demoTasks(t, era, &mcpclient.Options{Tasks: fastTasks(), Elicitation: func(context.Context, *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
				asked++
				return &mcpclient.ElicitResult{Action: "accept", Content: map[string]any{"reading": "narrow"}}, nil
			}})
			var seen []string
			ctx := WithStatus(ctx5s(t), func(t Task) { seen = append(seen, t.Status) })
			res, err := s.CallTool(ctx, "research", map[string]any{"topic": "pipes", "steps": 2, "delayMs": 1})
			if err != nil || res.Text() != "report on pipes (broad reading) after 2 steps" {
				t.Fatalf("%+v %v", res, err)
			}
			if seen[0] != Working || seen[len(seen)-1] != Completed {
				t.Errorf("statuses %v", seen)
			}
			res, err = s.CallTool(ctx5s(t), "research", map[string]any{"topic": "pipes", "steps": 2, "delayMs": 1, "ask": true})
			if err != nil || !strings.Contains(res.Text(), "narrow reading") || asked != 1 {
				t.Fatalf("asked %d times: %+v %v", asked, res, err)
			}
			_, err = s.CallTool(ctx5s(t), "research", map[string]any{"topic": "x", "steps": 1, "delayMs": 1, "fail": true})
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError {
				t.Errorf("failed task: %v", err)
			}
			started, _, err := Start(ctx5s(t), s, "research", map[string]any{"topic": "later", "steps": 1, "delayMs": 1})
			if err != nil {
				t.Fatal(err)
			}
			if res, err := Await(ctx5s(t), s, started.ID); err != nil || !strings.Contains(res.Text(), "report on later") {
				t.Fatalf("AwaitTask: %+v %v", res, err)
			}
			if era == mcpclient.EraHandshake {
				all, err := mcpclient.Collect(All(ctx5s(t), s))
				if err != nil || len(all) != 4 || all[3].ID != started.ID || all[2].Status != Failed {
					t.Errorf("Tasks: %v %v", all, err)
				}
			}
			task, _, err := Start(ctx5s(t), s, "research", map[string]any{"topic": "y", "steps": 100, "delayMs": 10000})
			if err != nil || task == nil {
				t.Fatalf("StartTool: %v %v", task, err)
			}
			if err := Cancel(ctx5s(t), s, task.ID); err != nil {
				t.Fatal(err)
			}
			st, err := Get(ctx5s(t), s, task.ID)
			if err != nil || st.Status != Cancelled {
				t.Errorf("after tasks/cancel: %+v %v", st, err)
			}
		})
	}
}

// Without Options.Tasks the server refuses the call (a handshake-era
// -32601, the extension's -32021) and no task is made. A nil *Options in
// Options.Tasks is no runner either: no typed-nil interface turns tasks on.
func TestDemoServerTaskToolNeedsTasks(t *testing.T) {
	var none *Options
	for name, opts := range map[string]*mcpclient.Options{"unset": {}, "nil *task.Options": {Tasks: none}} {
		for era, code := range map[mcpclient.Era]jsonrpc.Code{mcpclient.EraHandshake: jsonrpc.CodeMethodNotFound, mcpclient.EraStateless: -32021} {
			s := demoTasks(t, era, opts)
			_, err := s.CallTool(ctx5s(t), "research", map[string]any{"topic": "x"})
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != code {
				t.Errorf("%s, %v: got %v, want code %d", name, era, err, code)
			}
		}
	}
}

// A caller that gives up cancels the task at the server: the status
// check waits for the server's answer to the session's tasks/cancel.
func TestDemoServerTaskCancelledByTheCaller(t *testing.T) {
	for _, era := range []mcpclient.Era{mcpclient.EraHandshake, mcpclient.EraStateless} {
		w := &cancelWatch{answered: make(chan struct{})}
		s := demoTasks(t, era, &mcpclient.Options{Tasks: fastTasks(), WrapStream: w.wrap})
		ctx, cancel := context.WithCancel(context.Background())
		var id string
		_, err := s.CallTool(WithStatus(ctx, func(t Task) { id = t.ID; cancel() }), "research",
			map[string]any{"topic": "z", "steps": 100, "delayMs": 10000})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v: %v", era, err)
		}
		select {
		case <-w.answered:
		case <-ctx5s(t).Done():
			t.Fatalf("%v: no tasks/cancel answered", era)
		}
		if st, err := Get(ctx5s(t), s, id); err != nil || st.Status != Cancelled {
			t.Errorf("%v: the task was not cancelled: %+v %v", era, st, err)
		}
	}
}

// cancelWatch is a stream wrapper that closes answered when the answer
// to the first tasks/cancel the session sends comes back.
type cancelWatch struct {
	jsonrpc.Stream
	mu       sync.Mutex
	id       string // the tasks/cancel's id, once sent
	answered chan struct{}
}

func (w *cancelWatch) wrap(s jsonrpc.Stream) jsonrpc.Stream { w.Stream = s; return w }

func (w *cancelWatch) Write(ctx context.Context, frame []byte) error {
	if m, err := rpcwire.Decode(frame); err == nil && m.Method == "tasks/cancel" {
		w.mu.Lock()
		if w.id == "" {
			w.id = m.ID.String()
		}
		w.mu.Unlock()
	}
	return w.Stream.Write(ctx, frame)
}

func (w *cancelWatch) Read() ([]byte, error) {
	frame, err := w.Stream.Read()
	if m, derr := rpcwire.Decode(frame); err == nil && derr == nil && m.Method == "" {
		w.mu.Lock()
		if w.id != "" && m.ID.String() == w.id {
			close(w.answered)
			w.id = "\x00done" // no id reads so
		}
		w.mu.Unlock()
	}
	return frame, err
}
