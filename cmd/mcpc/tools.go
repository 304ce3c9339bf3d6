package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// toolJSON is one tool in `tools --json`. InputSchema is written apart,
// byte for byte as the server sent it (see writeTools).
type toolJSON struct {
	Name         string                     `json:"name"`
	Server       string                     `json:"server"`
	Tool         string                     `json:"tool"`
	Title        string                     `json:"title,omitempty"`
	Description  string                     `json:"description"`
	OutputSchema json.RawMessage            `json:"outputSchema,omitempty"`
	Annotations  *mcpclient.ToolAnnotations `json:"annotations,omitempty"`
	Meta         json.RawMessage            `json:"_meta,omitempty"` // MCP Apps' _meta.ui among others
}

func cmdTools(ctx context.Context, e *env, _ []string) error {
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	tools, err := reg.Tools(ctx)
	if err != nil {
		return err
	}
	if e.out.json {
		err = writeTools(e.out.w, tools)
	} else {
		rows := make([]groupRow, len(tools))
		for i, t := range tools {
			rows[i] = groupRow{t.Server, t.Name + "(" + toolArgs(t.Def.InputSchema) + ")", t.Def.Description}
		}
		printGroups(e.out.w, reg, rows, "tool")
	}
	if err != nil {
		return err
	}
	return e.checkServers()
}

// toolArgs lists a tool's arguments as its input schema orders them, an
// optional one marked with "?", as prompts are listed; at most
// maxListedArgs, then "…".
func toolArgs(schema json.RawMessage) string {
	var props json.RawMessage
	var required []string
	rpcwire.Members(schema, func(key []byte, start, end int) bool {
		switch string(key) {
		case `"properties"`:
			props = schema[start:end]
		case `"required"`:
			json.Unmarshal(schema[start:end], &required)
		}
		return true
	})
	var names []string
	rpcwire.Members(props, func(key []byte, _, _ int) bool {
		if len(names) == maxListedArgs {
			names = append(names, "…")
			return false
		}
		var name string
		json.Unmarshal(key, &name)
		if !slices.Contains(required, name) {
			name += "?"
		}
		names = append(names, name)
		return true
	})
	return strings.Join(names, ", ")
}

// maxListedArgs bounds the arguments `mcpc tools` shows for one tool.
const maxListedArgs = 8

// writeTools writes the tools as a JSON array, one tool a line. Each
// inputSchema is the server's own bytes: encoding/json would compact and
// re-escape it.
func writeTools(w io.Writer, tools []toolreg.Tool) error {
	var b bytes.Buffer
	b.WriteString("[")
	for i, t := range tools {
		obj, err := marshal(toolJSON{Name: t.Name, Server: t.Server, Tool: t.Def.Name, Title: t.Def.Title,
			Description: t.Def.Description, OutputSchema: t.Def.OutputSchema, Annotations: t.Def.Annotations, Meta: t.Def.Meta})
		if err != nil {
			return err
		}
		schema := []byte(t.Def.InputSchema)
		if len(bytes.TrimSpace(schema)) == 0 {
			schema = []byte("null")
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  ")
		b.Write(obj[:len(obj)-1]) // without its closing brace
		b.WriteString(`,"inputSchema":`)
		b.Write(schema)
		b.WriteString("}")
	}
	if len(tools) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	_, err := w.Write(b.Bytes())
	return err
}

func cmdCall(ctx context.Context, e *env, args []string) error {
	var params json.RawMessage = []byte("{}")
	if len(args) == 2 {
		var err error
		if params, err = readArgs(args[1], e.stdin); err != nil {
			return usagef("call %s: %v", args[0], err)
		}
	}
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	if e.cfg.progress {
		ctx, done := e.progressPrinter(ctx)
		defer done()
		res, err := callToolStepUp(ctx, e, reg, args[0], params)
		done() // the progress line goes before the result is printed
		return e.printCallResult(res, timeoutHint(err))
	}
	res, err := callToolStepUp(askProgress(ctx), e, reg, args[0], params)
	return e.printCallResult(res, timeoutHint(err))
}

// callTool calls a tool by its qualified name, or by any name that
// resolves to one tool.
func callTool(ctx context.Context, e *env, reg *toolreg.Registry, name string, params json.RawMessage) (*toolreg.Result, error) {
	// A qualified name goes straight to its server, which the lazy
	// registry starts alone; anything else is resolved against every
	// server's tools.
	res, err := reg.Call(ctx, name, params)
	if !errors.Is(err, toolreg.ErrUnknownTool) {
		return res, err
	}
	tools, err := reg.Tools(ctx)
	if err != nil {
		return nil, err
	}
	exposed, err := e.resolveTool(tools, name)
	if err != nil {
		return nil, err
	}
	return reg.Call(ctx, exposed, params)
}

// callToolStepUp is callTool, once more after a step-up when the first
// call answered 403 insufficient_scope (see env.stepUp).
func callToolStepUp(ctx context.Context, e *env, reg *toolreg.Registry, name string, params json.RawMessage) (*toolreg.Result, error) {
	res, err := callTool(ctx, e, reg, name, params)
	if again, serr := e.stepUp(ctx, reg, e.visits.lastCalled(), err); serr != nil {
		return nil, serr
	} else if again {
		res, err = callTool(ctx, e, reg, name, params)
	}
	return e.visitAndRetry(ctx, reg, name, params, res, err)
}

// printCallResult prints a call's result, or returns why there is none.
func (e *env) printCallResult(res *toolreg.Result, err error) error {
	if err != nil {
		return err
	}
	out := callResultJSON{Content: res.Content, StructuredContent: res.Structured, IsError: res.IsError, Meta: res.Meta}
	if out.Content == nil {
		out.Content = []mcpclient.Content{}
	}
	if res.IsError {
		if e.out.json { // a script wants the result, whatever it says
			if err := e.out.print(out, nil); err != nil {
				return err
			}
		}
		if res.Err == nil {
			return &toolreg.ToolError{Server: res.Server, Tool: res.Tool, Message: "no message"}
		}
		return res.Err
	}
	return e.out.print(out, func(w io.Writer) { printContent(w, res.Content, res.Structured) })
}

// callResultJSON is `call --json`: the CallToolResult, isError always
// present.
type callResultJSON struct {
	Content           []mcpclient.Content `json:"content"`
	StructuredContent json.RawMessage     `json:"structuredContent,omitempty"`
	IsError           bool                `json:"isError"`
	Meta              json.RawMessage     `json:"_meta,omitempty"`
}

// resolveTool finds the exposed name of the tool the user named: an
// exposed name, or, with one server selected, the tool's own name.
func (e *env) resolveTool(tools []toolreg.Tool, name string) (string, error) {
	for _, t := range tools {
		if t.Name == name {
			return name, nil
		}
	}
	if server := e.single(); server != "" {
		q := toolreg.Qualify(server, name)
		for _, t := range tools {
			if t.Name == q || (t.Server == server && t.Def.Name == name) {
				return t.Name, nil
			}
		}
	}
	return "", unknownName(e, "tool", name)
}

// unknownName is the error for a tool or prompt that no listing offered.
// When a server failed, the name may well be its: the error wraps that
// failure, whose kind sets the exit code.
func unknownName(e *env, kind, name string) error {
	msg := fmt.Sprintf("no %s %q", kind, name)
	failed := e.checkServers()
	if failed != nil {
		msg += fmt.Sprintf(" among the servers that answered (%v)", failed)
	}
	if e.single() == "" && !strings.HasPrefix(name, "mcp__") {
		msg += fmt.Sprintf("; with several servers, name it mcp__<server>__<%s>", kind)
	}
	err := &lineError{line: fmt.Sprintf("%s; mcpc %ss lists them", msg, kind)}
	if failed != nil {
		err.errs = []error{failed}
	}
	return err
}

// readArgs reads a command's JSON-object arguments: inline, from @file, or
// from standard input for "-". The error names where they came from.
func readArgs(arg string, stdin io.Reader) (json.RawMessage, error) {
	source := "inline arguments"
	data := []byte(arg)
	switch {
	case arg == "-":
		source = "arguments from standard input"
		var err error
		if data, err = io.ReadAll(stdin); err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
	case strings.HasPrefix(arg, "@"):
		source = fmt.Sprintf("arguments from %s", arg[1:])
		var err error
		if data, err = os.ReadFile(arg[1:]); err != nil {
			return nil, fmt.Errorf("reading arguments: %w", err)
		}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%s: want a JSON object, got %s", source, jsonKind(data))
	}
	return json.RawMessage(bytes.TrimSpace(data)), nil
}

// jsonKind names what data holds, for a person: "an array", "a string",
// or "invalid JSON (…)".
func jsonKind(data []byte) string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Sprintf("invalid JSON (at byte %d)", se.Offset)
		}
		return "invalid JSON"
	}
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "something else"
}
