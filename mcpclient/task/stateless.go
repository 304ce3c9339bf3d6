package task

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/internal/ext"
)

// The stateless era's tasks (SEP-2663, io.modelcontextprotocol/tasks): the
// server decides to answer a tools/call with a task; tasks/get reports the
// task with its outcome or the input it waits for inline; tasks/update
// carries the answers.

// runStateless polls tasks/get until the task ends, answering its input
// requests on the way, each key once however many polls repeat it.
func (d *taskDriver) runStateless(ctx context.Context) (json.RawMessage, error) {
	st := d.st
	for {
		if _, err := d.wait(ctx); err != nil { // its outcome comes inline from tasks/get, so no notice stands in for a poll
			return nil, err
		}
		t, err := getTask(ctx, st.s, d.task.ID)
		if err != nil {
			return nil, err
		}
		d.observe(&t.task)
		switch t.task.Status {
		case Completed:
			st.forget(t.task.ID)
			if len(t.result) == 0 || string(t.result) == "null" {
				return nil, fmt.Errorf("%w: tasks/get: a completed task without its result", mcpclient.ErrMalformedResult)
			}
			return t.result, nil
		case Failed, Cancelled:
			st.forget(t.task.ID)
			return nil, failure(&t.task, t.err)
		case InputRequired:
			if err := d.answerInputs(ctx, t.inputRequests); err != nil {
				return nil, fmt.Errorf("task %q: %w", clip(t.task.ID, 64), err)
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
	st, id := d.st, d.task.ID
	var requests map[string]json.RawMessage
	if err := json.Unmarshal(raw, &requests); err != nil {
		return fmt.Errorf("%w: inputRequests: %v", mcpclient.ErrMalformedResult, err)
	}
	if len(requests) > maxTaskInputsPerPoll {
		return fmt.Errorf("%w: %d input requests at once; at most %d are answered", mcpclient.ErrMalformedResult, len(requests), maxTaskInputsPerPoll)
	}
	keys := make([]string, 0, len(requests))
	for k := range requests {
		if !st.answeredAlready(id, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil // all answered already: the server has yet to take them in
	}
	slices.Sort(keys)
	answers := make(map[string]any, len(keys))
	for _, k := range keys {
		var r struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(requests[k], &r); err != nil {
			return fmt.Errorf("%w: input request %q: %v", mcpclient.ErrMalformedResult, clip(k, 64), err)
		}
		res, err := st.s.AnswerInput(ctx, r.Method, r.Params)
		if err != nil {
			return fmt.Errorf("input request %q (%s): %w", clip(k, 64), r.Method, err)
		}
		answers[k] = res
	}
	inputs, err := rpcwire.Marshal(answers)
	if err != nil {
		return err
	}
	if err := ext.SessionOf(st.s).CallNamed(ctx, methodTasksUpdate, id, taskUpdateParams{id, inputs}, nil); err != nil {
		return err
	}
	return st.markAnswered(id, keys)
}
