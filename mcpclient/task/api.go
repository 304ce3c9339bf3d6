package task

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/internal/ext"
)

// The handle API, for hosts that return to the user while a task runs:
// start it, look at it, collect its result or cancel it later. Await,
// Cancel and All need a session with mcpclient.Options.Tasks (ErrNotEnabled
// otherwise); without it Start is a plain call.

// Start calls a tool and returns as soon as the server has made a task of
// it: the task's first state, with a nil result. A server that answers
// the call at once returns its result and a nil task. Drive the task with
// Await, look at it with Get, stop it with Cancel.
func Start(ctx context.Context, s *mcpclient.Session, name string, args any) (*Task, *mcpclient.CallToolResult, error) {
	raw, res, err := s.StartTool(ctx, name, args)
	if err != nil || raw == nil {
		return nil, res, err
	}
	var w taskWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, nil, fmt.Errorf("%w: tools/call: %v", mcpclient.ErrMalformedResult, err)
	}
	d, err := parseTask(methodToolsCall, &w)
	if err != nil {
		return nil, nil, err
	}
	return &d.task, nil, nil
}

// Get asks the server for a task's state (tasks/get). It only looks:
// input the task waits for is answered by Await.
func Get(ctx context.Context, s *mcpclient.Session, id string) (*Task, error) {
	d, err := getTask(ctx, s, id)
	if err != nil {
		return nil, err
	}
	return &d.task, nil
}

// Await drives a tool call's task to its final result, as CallTool does
// after Start: it polls at the server's interval (within Options' bounds),
// answers what the task asks for through the session's sampling,
// elicitation and roots handlers, and returns the result, or an *Error.
// When ctx ends first the task is cancelled at the server (tasks/cancel)
// and ctx's error returned.
func Await(ctx context.Context, s *mcpclient.Session, id string) (*mcpclient.CallToolResult, error) {
	st, err := of(s)
	if err != nil {
		return nil, err
	}
	return st.drive(ctx, &Task{ID: id, Status: Working}, true)
}

// Cancel asks the server to cancel a task (tasks/cancel). The server
// decides whether and when the task stops.
func Cancel(ctx context.Context, s *mcpclient.Session, id string) error {
	st, err := of(s)
	if err != nil {
		return err
	}
	st.forget(id)
	return ext.SessionOf(s).CallNamed(ctx, methodTasksCancel, id, idParams{id}, nil)
}
