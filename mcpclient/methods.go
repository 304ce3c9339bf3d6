package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/internal/reqinfo"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

type callToolParams struct {
	Name      string `json:"name"`
	Arguments any    `json:"arguments"`
	Task      any    `json:"task,omitempty"` // from Options.Tasks
}

// callToolWire decodes a tools/call result in one pass (see contentWire),
// the stateless era's envelope included.
type callToolWire struct {
	Content           []contentIn     `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              json.RawMessage `json:"_meta,omitempty"`
	resultEnvelope
}

// toolWires recycles the decoding scratch of tools/call results: the
// wire struct and its content items' array, which CallTool converts and
// lets go of. BenchmarkCallToolStdio without it: 19 allocations and
// 1,713 B per echo call, not 17 and 1,216.
var toolWires = sync.Pool{New: func() any { return new(callToolWire) }}

func getToolWire() *callToolWire { return toolWires.Get().(*callToolWire) }

// putToolWire clears w, every item its array ever held included (encoding/json
// decodes into an array's old elements without zeroing them, and nothing of
// one result may stay alive or leak into the next), and recycles it.
func putToolWire(w *callToolWire) {
	items := w.Content[:cap(w.Content)]
	if cap(items) > 64 {
		items = nil // a rare long result: let its array go
	}
	clear(items)
	*w = callToolWire{Content: items[:0]}
	toolWires.Put(w)
}

// errHeaderMismatch matches a -32020 answer.
var errHeaderMismatch = &jsonrpc.Error{Code: codeHeaderMismatch}

// CallTool runs a tool. args is any JSON object value (a map, a struct, a
// json.RawMessage) or nil (sent as {}). A tool that ran and failed returns
// a result with IsError set and a nil error; the error is for everything
// else: unknown tool, invalid arguments (as a *jsonrpc.Error), timeout,
// lost connection, a result that is not a tool result.
//
// With Options.Tasks, a call the server runs as a task is still one call:
// CallTool hands the task to Options.Tasks, which follows it to its final
// result.
func (s *Session) CallTool(ctx context.Context, name string, args any) (*CallToolResult, error) {
	task, res, err := s.StartTool(ctx, name, args)
	if err != nil || task == nil {
		return res, err
	}
	return s.tasks.Drive(ctx, task)
}

// StartTool is the first half of CallTool: it sends tools/call (asking
// for a task where Options.Tasks says so) and returns either the tool's
// result or, when the server made a task of the call, that task as the
// server sent it, undriven — package mcpclient/task reads it. Without
// Options.Tasks no task comes back: a server makes one only when asked
// (handshake era) or when the client declared the tasks extension
// (stateless era), and any other task answer is an ErrMalformedResult.
func (s *Session) StartTool(ctx context.Context, name string, args any) (task json.RawMessage, res *CallToolResult, err error) {
	var taskParams any
	if s.tasks != nil && s.Era() != EraStateless {
		if taskParams, err = s.tasks.TaskParams(ctx, name); err != nil {
			return nil, nil, err
		}
	}
	w := getToolWire()
	defer putToolWire(w)
	raw, err := s.callTool(ctx, name, args, taskParams, w)
	if err != nil && errors.Is(err, errHeaderMismatch) && s.Era() == EraStateless {
		// The tool's annotations may have changed: list again, then retry
		// with the headers the new schema asks for.
		if _, lerr := Collect(s.Tools(ctx)); lerr == nil {
			zero(w)
			raw, err = s.callTool(ctx, name, args, taskParams, w)
		}
	}
	switch {
	case err != nil:
		return nil, nil, err
	case w.ResultType == "task": // stateless: the wire let it through only with Options.Tasks
		return raw, nil, nil
	case taskParams != nil:
		// A server that does not make tasks of this tool ignores
		// params.task and answers the call itself.
		var c struct {
			Task json.RawMessage `json:"task"`
		}
		if json.Unmarshal(raw, &c) == nil && len(c.Task) > 0 && string(c.Task) != "null" {
			return c.Task, nil, nil
		}
	}
	res, err = w.result(raw)
	return nil, res, err
}

// DecodeToolResult decodes a tools/call result as CallTool does: for one
// that came another way, a task's outcome, say, or a call sent again
// through Session.Call with Options.ManualInput.
func DecodeToolResult(raw json.RawMessage) (*CallToolResult, error) {
	w := getToolWire()
	defer putToolWire(w)
	if err := decodeResult(methodToolsCall, raw, w, false, nil); err != nil {
		return nil, err
	}
	return w.result(raw)
}

// result converts the decoded wire into a CallToolResult. A result
// without content is not a tool result (the schema requires content): an
// answer of another kind, say a task the call did not ask for, must not
// reach the model as an empty success.
func (w *callToolWire) result(raw json.RawMessage) (*CallToolResult, error) {
	if len(w.Content) == 0 && !hasMember(raw, "content") {
		return nil, fmt.Errorf("%w: tools/call answered without content: %s", ErrMalformedResult, describeResult(raw))
	}
	res := &CallToolResult{
		Content:           decodeContent(w.Content, raw, "content"),
		StructuredContent: w.StructuredContent,
		IsError:           w.IsError,
		Meta:              w.Meta,
	}
	if res.Content == nil {
		res.Content = []Content{}
	}
	return res, nil
}

// callTool sends one tools/call, with the Mcp-Name and Mcp-Param headers
// the stateless HTTP wire mirrors.
func (s *Session) callTool(ctx context.Context, name string, args any, task any, w *callToolWire) (json.RawMessage, error) {
	p := callToolParams{Name: name, Arguments: objectOrEmpty(args), Task: task}
	r, err := newRequest(methodToolsCall, p, true)
	if err != nil {
		return nil, err
	}
	defer r.release()
	if specs := s.headers.get(name); len(specs) > 0 {
		// Set only where reqinfo.ParamHeaders is (keepValidTools).
		h, _ := reqinfo.ParamHeaders.Values(specs, r.params) // a value that cannot be read sends no header
		r.named(s, name, h)
	} else {
		r.named(s, name, nil)
	}
	err = s.send(ctx, r, w)
	return r.raw, err
}

// callNamed is Call for a request that names its target, which the
// stateless HTTP wire mirrors into the Mcp-Name header so that
// intermediaries can route it: prompts/get's name, resources/read's uri,
// an extension's tasks/get's task id (ext.Session.CallNamed). known says
// params is one of this package's own
// types (see newRequest).
func (s *Session) callNamed(ctx context.Context, method, name string, params, result any, known bool) error {
	r, err := newRequest(method, params, known)
	if err != nil {
		return err
	}
	defer r.release()
	r.named(s, name, nil)
	return s.send(ctx, r, result)
}

// getPromptParams always carries arguments: servers built on the
// TypeScript SDK reject a prompts/get without them, even for a prompt
// whose arguments are all optional.
type getPromptParams struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments"`
}

// GetPrompt renders a prompt with its arguments.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string) (*GetPromptResult, error) {
	var res struct {
		GetPromptResult
		resultEnvelope
	}
	if args == nil {
		args = map[string]string{}
	}
	if err := s.callNamed(ctx, methodPromptsGet, name, getPromptParams{name, args}, &res, true); err != nil {
		return nil, err
	}
	return &res.GetPromptResult, nil
}

type uriParams struct {
	URI string `json:"uri"`
}

type readResourceWire struct {
	Contents []resourceContentsWire `json:"contents"`
	Meta     json.RawMessage        `json:"_meta,omitempty"`
	resultEnvelope
}

// ReadResource reads a resource by URI. An unknown URI is a *jsonrpc.Error
// with code CodeResourceNotFound.
func (s *Session) ReadResource(ctx context.Context, uri string) (*ReadResourceResult, error) {
	var w readResourceWire
	if err := s.callNamed(ctx, methodResourcesRead, uri, uriParams{uri}, &w, true); err != nil {
		return nil, err
	}
	res := &ReadResourceResult{Contents: make([]ResourceContents, len(w.Contents)), Meta: w.Meta}
	for i := range w.Contents {
		res.Contents[i] = w.Contents[i].contents()
	}
	return res, nil
}

// Subscribe asks for notifications/resources/updated when the resource at
// uri changes (see Options.OnResourceUpdated): resources/subscribe in the
// handshake era, the resource added to the session's subscriptions/listen
// request in the stateless era. Either way it returns once the server has
// taken the subscription — in the stateless era when its
// acknowledgement names uri, within ctx and 10 seconds — so a change made
// after it returns is reported.
func (s *Session) Subscribe(ctx context.Context, uri string) error {
	if s.Era() == EraStateless {
		w := s.awaitAck(uri)
		s.subscribeStateless(uri, true)
		return s.waitAck(ctx, w)
	}
	return s.call(ctx, methodResourcesSubscribe, uriParams{uri}, nil)
}

// Unsubscribe cancels a Subscribe.
func (s *Session) Unsubscribe(ctx context.Context, uri string) error {
	if s.Era() == EraStateless {
		s.subscribeStateless(uri, false)
		return nil
	}
	return s.call(ctx, methodResourcesUnsubscribe, uriParams{uri}, nil)
}

// Complete asks the server for completions of a prompt or resource-template
// argument.
func (s *Session) Complete(ctx context.Context, p *CompleteParams) (*Completion, error) {
	var res struct {
		Completion Completion `json:"completion"`
	}
	if err := s.call(ctx, methodComplete, p, &res); err != nil {
		return nil, err
	}
	return &res.Completion, nil
}

// SetLogLevel asks the server to send log messages at level and above
// ("debug", "info", "notice", "warning", "error", "critical", "alert",
// "emergency") as notifications/message: logging/setLevel in the handshake
// era; in the stateless era every later request carries the level.
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	if s.Era() == EraStateless {
		s.stateMu.Lock()
		s.logLevel = level
		s.stateMu.Unlock()
		s.encodeMeta()
		return nil
	}
	return s.call(ctx, methodSetLevel, struct {
		Level string `json:"level"`
	}{level}, nil)
}

// Ping checks that the server is alive: ping in the handshake era,
// server/discover in the stateless era (which has no ping).
func (s *Session) Ping(ctx context.Context) error {
	if s.Era() == EraStateless {
		return s.call(ctx, methodDiscover, nil, nil)
	}
	return s.call(ctx, methodPing, nil, nil)
}

// objectOrEmpty is a tool call's arguments as sent: nil, a nil map or
// pointer, and a JSON null all become {} — servers built on the
// TypeScript SDK reject "arguments": null.
func objectOrEmpty(args any) any {
	switch a := args.(type) {
	case nil:
		return json.RawMessage("{}")
	case json.RawMessage:
		if t := strings.TrimSpace(string(a)); t == "" || t == "null" {
			return json.RawMessage("{}")
		}
		return a
	}
	v := reflect.ValueOf(args)
	switch v.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		if v.IsNil() {
			return json.RawMessage("{}")
		}
	}
	return args
}

// hasMember reports whether the JSON object raw has the member key.
func hasMember(raw json.RawMessage, key string) bool {
	found := false
	rpcwire.Members(raw, func(k []byte, _, _ int) bool {
		found = string(k) == strconv.Quote(key)
		return !found
	})
	return found
}

// describeResult says in a few words what a result that should have been
// a tool result was: a task, or an object with these members.
func describeResult(raw json.RawMessage) string {
	if hasMember(raw, "task") {
		return "a task (CreateTaskResult), which the call did not ask for; the task may still run at the server"
	}
	var keys []string
	err := rpcwire.Members(raw, func(k []byte, _, _ int) bool {
		keys = append(keys, truncate(strings.Trim(string(k), `"`), 40))
		return len(keys) < 8
	})
	if err != nil {
		return "not a JSON object"
	}
	if len(keys) == 0 {
		return "an empty object"
	}
	return "an object with " + strconv.Quote(strings.Join(keys, ", "))
}
