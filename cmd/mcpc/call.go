package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// The call command: a tool called by its exposed or bare name, with its
// arguments read and checked before any server starts, once more after a
// step-up or a page the server wanted visited, and its result printed.

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

// visitAndRetry follows a call that answered -32042 (the server wants
// pages visited first): once they are (see visits.required), the call is
// made again, once.
func (e *env) visitAndRetry(ctx context.Context, reg *toolreg.Registry, name string, params json.RawMessage, res *toolreg.Result, err error) (*toolreg.Result, error) {
	again, verr := e.visits.required(ctx, err, e.cfg.timeout)
	switch {
	case verr != nil:
		return nil, verr
	case !again:
		return res, err
	}
	res, err = callTool(ctx, e, reg, name, params)
	if len(mcpclient.URLElicitations(err)) > 0 {
		return nil, fmt.Errorf("the server still wants a page visited, after the visit and a second call: %w", err)
	}
	return res, err
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
