package demoserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// researchTool runs only as a task (execution.taskSupport "required"); its
// work is done by session.research, not by run.
var researchTool = &tool{
	def: toolDef{
		Name: "research", Title: "Research",
		Description: "Writes a report on a topic in steps, as a task the client polls; with ask, asks the user which reading of the topic they mean; with fail, fails as a task.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"},` +
			`"steps":{"type":"integer","minimum":1,"maximum":100,"default":3},` +
			`"delayMs":{"type":"integer","minimum":0,"maximum":10000,"default":100},` +
			`"ask":{"type":"boolean","default":false},"fail":{"type":"boolean","default":false}},"required":["topic"]}`),
		Annotations: readOnly,
		Execution:   json.RawMessage(`{"taskSupport":"required"}`),
	},
	task: true,
}

func init() { researchTool.raw = mustJSON(researchTool.def) }

type researchArgs struct {
	Topic   string `json:"topic"`
	Steps   int    `json:"steps"`
	DelayMs int    `json:"delayMs"`
	Ask     bool   `json:"ask"`
	Fail    bool   `json:"fail"`
}

// taskCall is what a call of a task tool reads from tools/call's params:
// 2025-11-25's params.task, or the stateless era's metadata.
type taskCall struct {
	Arguments json.RawMessage `json:"arguments"`
	Task      json.RawMessage `json:"task"`
	Meta      struct {
		Version string `json:"io.modelcontextprotocol/protocolVersion"`
		Caps    struct {
			clientCaps
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"io.modelcontextprotocol/clientCapabilities"`
	} `json:"_meta"`
}

// callTaskTool starts the research tool as a task: it answers at once
// with the task, and the work goes on in the background.
func (ss *session) callTaskTool(params json.RawMessage) (any, error) {
	var p taskCall
	if err := decodeParams("tools/call", params, &p); err != nil {
		return nil, err
	}
	a := researchArgs{Steps: 3, DelayMs: 100}
	if err := (&call{ss: ss, name: "research", args: p.Arguments}).decode(&a); err != nil {
		return nil, err
	}
	if a.Topic == "" {
		return nil, invalidParams("tool %q: missing required argument %q", "research", "topic")
	}
	a.Steps, a.DelayMs = min(max(a.Steps, 1), 100), min(max(a.DelayMs, 0), 10000)
	stateless := p.Meta.Version != ""
	var caps clientCaps
	switch {
	case stateless && !declared(p.Meta.Caps.Extensions[tasksExtension]):
		return nil, &jsonrpc.Error{Code: -32021, Message: "Missing required client capability",
			Data: mustJSON(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{tasksExtension: struct{}{}}}})}
	case stateless:
		caps = p.Meta.Caps.clientCaps
	case !declared(p.Task):
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "tool %q runs only as a task: call it with params.task", "research")
	default:
		caps, _ = ss.caps()
	}
	t, ctx, err := ss.tasks.create(stateless)
	if err != nil {
		return nil, err
	}
	ss.tasks.set(t, "working", fmt.Sprintf("step 1 of %d", a.Steps)) // what the client sees first
	if !ss.enter() {
		ss.tasks.set(t, "cancelled", "the server is shutting down")
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "server is shutting down")
	}
	v := ss.tasks.view(t) // before the work starts: a quick task must not answer its own creation as completed
	go func() {
		defer ss.handlers.Done()
		ss.research(ctx, t, a, a.Ask && caps.elicitsForms())
	}()
	if stateless {
		v["resultType"] = "task"
		return v, nil
	}
	return map[string]any{"task": v}, nil
}

// research is the task's work: steps, a question to the user after the
// first one when asked to, then a report or a failure.
func (ss *session) research(ctx context.Context, t *taskEntry, a researchArgs, ask bool) {
	reading := "broad"
	for i := 1; i <= a.Steps; i++ {
		ss.tasks.set(t, "working", fmt.Sprintf("step %d of %d", i, a.Steps))
		timer := time.NewTimer(time.Duration(a.DelayMs) * time.Millisecond)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return // cancelled, or the session ended
		}
		if i == 1 && ask {
			r, err := ss.askReading(ctx, t)
			if ctx.Err() != nil {
				return
			}
			reading = r
			if err != nil {
				reading = "broad, as the question went unanswered"
			}
		}
	}
	if a.Fail {
		ss.tasks.finish(t, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "research failed: the sources did not answer"})
		return
	}
	ss.tasks.finish(t, mustJSON(textResult("report on %s (%s reading) after %d steps", a.Topic, reading, a.Steps)), nil)
}

// clarify is the question the research tool asks.
var clarify = json.RawMessage(`{"mode":"form","message":"Which reading of the topic do you mean?",` +
	`"requestedSchema":{"type":"object","properties":{"reading":{"type":"string","enum":["broad","narrow"],"default":"narrow"}},"required":["reading"]}}`)

// askReading asks the user through the client, as the task's era does it:
// an elicitation/create request tied to the task (2025-11-25), or an input
// request the client finds in tasks/get and answers with tasks/update.
func (ss *session) askReading(ctx context.Context, t *taskEntry) (string, error) {
	ss.tasks.set(t, "input_required", "waiting for the user to pick a reading")
	var raw json.RawMessage
	var err error
	if t.stateless {
		raw, err = ss.tasks.await(ctx, t, "reading", mustJSON(map[string]any{"method": "elicitation/create", "params": clarify}))
	} else {
		params := append(bytes.TrimSuffix(clarify, []byte("}")), `,"_meta":{"`+relatedTask+`":{"taskId":"`+t.id+`"}}}`...)
		err = ss.conn.Call(ctx, "elicitation/create", json.RawMessage(params), &raw)
	}
	ss.tasks.set(t, "working", "the user answered")
	var answer struct {
		Action  string `json:"action"`
		Content struct {
			Reading string `json:"reading"`
		} `json:"content"`
	}
	if err == nil {
		err = json.Unmarshal(raw, &answer)
	}
	if err != nil || answer.Action != "accept" || (answer.Content.Reading != "broad" && answer.Content.Reading != "narrow") {
		return "broad", fmt.Errorf("no usable answer: %v", err)
	}
	return answer.Content.Reading, nil
}

// await puts an input request on a stateless task and waits for its
// answer (tasks/update).
func (ts *taskStore) await(ctx context.Context, t *taskEntry, key string, req json.RawMessage) (json.RawMessage, error) {
	ch := make(chan json.RawMessage, 1)
	ts.mu.Lock()
	t.inputs[key], t.answers[key] = req, ch
	ts.mu.Unlock()
	select {
	case a := <-ch:
		return a, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// updateTask takes the answers to a stateless task's input requests; keys
// not outstanding are ignored, as the extension says.
func (ss *session) updateTask(ctx context.Context, params json.RawMessage) (any, error) {
	t, err := ss.tasks.get("tasks/update", params)
	if err != nil {
		return nil, err
	}
	var p struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	if err := decodeParams("tasks/update", params, &p); err != nil {
		return nil, err
	}
	ss.tasks.mu.Lock()
	defer ss.tasks.mu.Unlock()
	for k, v := range p.InputResponses {
		if ch := t.answers[k]; ch != nil {
			ch <- v
			delete(t.answers, k)
			delete(t.inputs, k)
		}
	}
	return map[string]string{"resultType": "complete"}, nil
}
