package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The stateless era's tasks (SEP-2663, io.modelcontextprotocol/tasks): the
// server decides to answer a tools/call with a task; tasks/get reports the
// task with its outcome or the input it waits for inline; tasks/update
// carries the answers.

// statelessCreated reads the task a stateless server answered a tools/call
// with (resultType "task": the result is the task itself).
func statelessCreated(raw json.RawMessage) (*Task, error) {
	var w taskWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("%w: tools/call: %v", ErrMalformedResult, err)
	}
	d, err := parseTask("tools/call", &w)
	if err != nil {
		return nil, err
	}
	return &d.task, nil
}

// runStateless polls tasks/get until the task ends, answering its input
// requests on the way, each key once however many polls repeat it.
func (d *taskDriver) runStateless(ctx context.Context) (json.RawMessage, error) {
	s := d.s
	for {
		if _, err := d.wait(ctx); err != nil { // its outcome comes inline from tasks/get, so no notice stands in for a poll
			return nil, err
		}
		t, err := s.getTask(ctx, d.task.ID)
		if err != nil {
			return nil, err
		}
		d.observe(&t.task)
		switch t.task.Status {
		case TaskCompleted:
			s.tasks.forget(t.task.ID)
			if len(t.result) == 0 || string(t.result) == "null" {
				return nil, fmt.Errorf("%w: tasks/get: a completed task without its result", ErrMalformedResult)
			}
			return t.result, nil
		case TaskFailed, TaskCancelled:
			s.tasks.forget(t.task.ID)
			return nil, taskError(&t.task, t.err)
		case TaskInputRequired:
			if err := d.answerInputs(ctx, t.inputRequests); err != nil {
				return nil, fmt.Errorf("mcpclient: task %q: %w", truncate(t.task.ID, 64), err)
			}
		}
	}
}

// taskUpdateParams are tasks/update's params.
type taskUpdateParams struct {
	TaskID         string          `json:"taskId"`
	InputResponses json.RawMessage `json:"inputResponses"`
}

// answerInputs answers the input requests of one poll that were not
// answered before, through the session's handlers, with one tasks/update.
// The SEP asks hosts to treat each as they would the same request sent
// directly: it goes to the same handler.
func (d *taskDriver) answerInputs(ctx context.Context, raw json.RawMessage) error {
	s, id := d.s, d.task.ID
	var requests map[string]json.RawMessage
	if err := json.Unmarshal(raw, &requests); err != nil {
		return fmt.Errorf("%w: inputRequests: %v", ErrMalformedResult, err)
	}
	if len(requests) > maxTaskInputsPerPoll {
		return fmt.Errorf("%w: %d input requests at once; at most %d are answered", ErrMalformedResult, len(requests), maxTaskInputsPerPoll)
	}
	keys := make([]string, 0, len(requests))
	for k := range requests {
		if !s.tasks.answeredAlready(id, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil // all answered already: the server has yet to take them in
	}
	slices.Sort(keys)
	answers := make(map[string]any, len(keys))
	for _, k := range keys {
		var r inputRequest
		if err := json.Unmarshal(requests[k], &r); err != nil {
			return fmt.Errorf("%w: input request %q: %v", ErrMalformedResult, truncate(k, 64), err)
		}
		res, err := s.answerInput(ctx, &jsonrpc.Request{Method: r.Method, Params: r.Params})
		if err != nil {
			return fmt.Errorf("input request %q (%s): %w", truncate(k, 64), r.Method, err)
		}
		answers[k] = res
	}
	inputs, err := marshalPlain(answers)
	if err != nil {
		return err
	}
	if err := s.callNamed(ctx, "tasks/update", id, taskUpdateParams{id, inputs}, nil); err != nil {
		return err
	}
	return s.tasks.markAnswered(id, keys)
}
