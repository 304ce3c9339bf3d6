package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// tool is one tool the server offers: its definition as tools/list shows
// it, and the function that runs it.
type tool struct {
	def toolDef
	raw json.RawMessage // def, encoded once
	run func(ctx context.Context, c *call) (*toolResult, error)
	// task marks a tool that runs only as a task (see tasks_tool.go).
	task bool
}

type toolDef struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Execution    json.RawMessage `json:"execution,omitempty"`
}

func newTool(def toolDef, run func(ctx context.Context, c *call) (*toolResult, error)) *tool {
	return &tool{def: def, raw: mustJSON(def), run: run}
}

// call is one tools/call request on its way to a tool.
type call struct {
	ss            *session
	name          string
	args          json.RawMessage
	progressToken json.RawMessage // absent unless the client asked for progress
	params        json.RawMessage // the whole request's params
}

// Annotations and schemas shared by several tools.
var (
	readOnly  = json.RawMessage(`{"readOnlyHint":true,"openWorldHint":false}`)
	noSchema  = json.RawMessage(`{"type":"object","properties":{}}`)
	uriSchema = json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string","description":"A resource URI."}},"required":["uri"]}`)
)

// demoTools returns the demo tools in the order tools/list shows them.
func demoTools() []*tool {
	return append([]*tool{
		newTool(toolDef{
			Name: "echo", Title: "Echo", Description: "Returns the text it is given.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"The text to echo."}},"required":["text"]}`),
			Annotations: readOnly,
		}, echoTool),
		newTool(toolDef{
			Name: "add", Title: "Add", Description: "Adds two numbers; the sum comes as text and as structured content.",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`),
			Annotations:  readOnly,
		}, addTool),
		newTool(toolDef{
			Name: "slow", Title: "Slow", Description: "Takes steps×delayMs to finish, reporting progress after each step when asked to; stops when cancelled.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"steps":{"type":"integer","minimum":0,"maximum":10000,"default":5},"delayMs":{"type":"integer","minimum":0,"maximum":60000,"default":100}}}`),
			Annotations: readOnly,
		}, slowTool),
		newTool(toolDef{
			Name: "sample", Title: "Sample", Description: "Asks the client's model to answer a prompt (sampling/createMessage) and returns what it said; with tools, offers the model a get_time tool and requires it to ask for it.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"prompt":{"type":"string"},"tools":{"type":"boolean","default":false}},"required":["prompt"]}`),
		}, sampleTool),
		newTool(toolDef{
			Name: "elicit", Title: "Elicit", Description: "Asks the user for a name and an age through the client (elicitation/create) and returns the answer.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
		}, elicitTool),
		newTool(toolDef{
			Name: "roots", Title: "Roots", Description: "Lists the client's roots (roots/list), one URI per line.",
			InputSchema: noSchema,
		}, rootsTool),
		newTool(toolDef{
			Name: "mixed", Title: "Mixed content", Description: "Returns one content block of each kind: text, image, audio, resource link and embedded resource.",
			InputSchema:  noSchema,
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"items":{"type":"integer"}},"required":["items"]}`),
			Annotations:  readOnly,
		}, mixedTool),
		newTool(toolDef{
			Name: "fail", Title: "Fail", Description: "Always fails, reporting the failure as a tool error (isError) rather than a protocol error.",
			InputSchema: noSchema,
			Annotations: readOnly,
		}, failTool),
		newTool(toolDef{
			Name: "big", Title: "Big", Description: "Returns one text block of exactly the requested size in bytes (at most 64 MiB).",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"bytes":{"type":"integer","minimum":0,"maximum":67108864}},"required":["bytes"]}`),
			Annotations: readOnly,
		}, bigTool),
	}, notifyingTools()...)
}

// notifyingTools are the demo tools that send the client notifications,
// and the task tool.
func notifyingTools() []*tool {
	return []*tool{
		newTool(toolDef{
			Name: "log", Title: "Log", Description: "Sends a log message to the client (notifications/message) if its level is at or above the level set with logging/setLevel.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"level":{"type":"string","enum":["debug","info","notice","warning","error","critical","alert","emergency"],"default":"info"},"message":{"type":"string"}},"required":["message"]}`),
		}, logTool),
		newTool(toolDef{
			Name: "change", Title: "Change", Description: `Adds the tool "dynamic", or removes it if present, and notifies the client that the tool list changed.`,
			InputSchema: noSchema,
			Annotations: json.RawMessage(`{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}`),
		}, changeTool),
		newTool(toolDef{
			Name: "touch", Title: "Touch", Description: "Pretends a resource changed: notifies the client (notifications/resources/updated) if it subscribed to the URI.",
			InputSchema: uriSchema,
		}, touchTool),
		researchTool,
	}
}

// dynamicTool is the tool the change tool adds and removes. It is listed
// after all the others.
var dynamicTool = newTool(toolDef{
	Name: "dynamic", Title: "Dynamic", Description: "Exists only between two calls of the change tool.",
	InputSchema: noSchema,
	Annotations: readOnly,
}, func(ctx context.Context, c *call) (*toolResult, error) {
	return textResult("the dynamic tool is here"), nil
})

// generatedTools returns n tools named tool-0001, tool-0002, … Each takes
// an optional string "value" and answers "<name>: <value>".
func generatedTools(n int) []*tool {
	tools := make([]*tool, 0, max(n, 0))
	schema := json.RawMessage(`{"type":"object","properties":{"value":{"type":"string","description":"Any text."}}}`)
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("tool-%04d", i)
		tools = append(tools, newTool(toolDef{
			Name:        name,
			Description: fmt.Sprintf("Generated tool %d of %d.", i, n),
			InputSchema: schema,
			Annotations: readOnly,
		}, func(ctx context.Context, c *call) (*toolResult, error) {
			var a struct {
				Value string `json:"value"`
			}
			if err := c.decode(&a); err != nil {
				return nil, err
			}
			return textResult("%s: %s", name, a.Value), nil
		}))
	}
	return tools
}

func (ss *session) listTools(ctx context.Context, params json.RawMessage) (any, error) {
	var p pageParams
	if err := decodeParams("tools/list", params, &p); err != nil {
		return nil, err
	}
	tools := ss.srv.tools
	total := len(tools)
	if ss.hasDynamicTool() {
		total++
	}
	start, end, next, err := page("tools/list", p.Cursor, total, ss.srv.pageSize)
	if err != nil {
		return nil, err
	}
	items := make([]json.RawMessage, 0, end-start)
	for i := start; i < end; i++ {
		if i < len(tools) {
			items = append(items, tools[i].raw)
		} else {
			items = append(items, dynamicTool.raw)
		}
	}
	return appendPage("tools", items, next), nil
}

func (ss *session) callTool(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if err := decodeParams("tools/call", params, &p); err != nil {
		return nil, err
	}
	if p.Name == "" {
		return nil, invalidParams("tools/call: missing tool name")
	}
	t := ss.srv.toolIndex[p.Name]
	if t == nil && p.Name == dynamicTool.def.Name && ss.hasDynamicTool() {
		t = dynamicTool
	}
	if t == nil {
		return nil, invalidParams("tools/call: unknown tool %q", p.Name)
	}
	if t.task {
		return ss.callTaskTool(params)
	}
	c := &call{ss: ss, name: p.Name, args: p.Arguments, progressToken: p.Meta.ProgressToken, params: params}
	res, err := t.run(ctx, c)
	ss.srv.log.Debug("demoserver: tool call ended", "tool", p.Name, "error", err)
	switch {
	case err != nil:
		return nil, err
	case res.encoded != nil:
		return res.encoded, nil
	}
	return res, nil
}

func (ss *session) hasDynamicTool() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.dynamicTool
}

// decode decodes the call's arguments into v, a pointer to a struct. An
// argument of the wrong type is an invalid-params error naming it. Absent
// arguments leave v as it is.
func (c *call) decode(v any) error {
	if !declared(c.args) {
		return nil
	}
	err := json.Unmarshal(c.args, v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te) && te.Field != "":
		return invalidParams("tool %q: argument %q must be %s", c.name, te.Field, jsonKind(te.Type))
	case errors.As(err, &te):
		return invalidParams("tool %q: arguments must be an object", c.name)
	default:
		return invalidParams("tool %q: invalid arguments: %v", c.name, err)
	}
}

// missing is the error for a required argument that was not given.
func (c *call) missing(arg string) error {
	return invalidParams("tool %q: missing required argument %q", c.name, arg)
}

// jsonKind names the JSON type that decodes into t.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}
