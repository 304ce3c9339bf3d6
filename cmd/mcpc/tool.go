package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient/apps"
	"github.com/plainmcp/plainmcp/toolreg"
)

// toolDefJSON is `tool NAME --json`: the definition as the server sent
// it, every member kept (task support, icons, members MCP added after
// mcpc was built), under the name mcpc exposes it by.
type toolDefJSON struct {
	Name       string          `json:"name"`
	Server     string          `json:"server"`
	Definition json.RawMessage `json:"definition"`
}

// cmdTool shows one tool's whole definition: for a person its title,
// description, every argument (nested ones too), annotations, task
// support and app; with --json the server's own object.
func cmdTool(ctx context.Context, e *env, args []string) error {
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	tools, err := reg.Tools(ctx)
	if err != nil {
		return err
	}
	name, err := e.resolveTool(tools, args[0])
	if err != nil {
		return err
	}
	var t toolreg.Tool
	for _, x := range tools {
		if x.Name == name {
			t = x
		}
	}
	if !e.out.json {
		describeTool(e.out.w, t)
		return nil
	}
	raw, err := rawToolDef(ctx, reg, t)
	if err != nil {
		return err
	}
	return e.out.print(toolDefJSON{Name: t.Name, Server: t.Server, Definition: raw}, nil)
}

// maxToolPages bounds the pages of tools/list read to find a tool's raw
// definition.
const maxToolPages = 100

// rawToolDef lists the tool's server's tools again, undecoded, and gives
// the object the server sent for t: the decoded definition keeps only the
// members mcpc knows.
func rawToolDef(ctx context.Context, reg *toolreg.Registry, t toolreg.Tool) (json.RawMessage, error) {
	s, err := reg.Session(ctx, t.Server)
	if err != nil {
		return nil, err
	}
	cursor := ""
	for range maxToolPages {
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		params := struct {
			Cursor string `json:"cursor,omitempty"`
		}{cursor}
		if err := s.Call(ctx, "tools/list", params, &page); err != nil {
			return nil, fmt.Errorf("listing the tools of %s: %w", t.Server, err)
		}
		for _, raw := range page.Tools {
			var named struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(raw, &named) == nil && named.Name == t.Def.Name {
				return raw, nil
			}
		}
		if page.NextCursor == "" || page.NextCursor == cursor {
			break
		}
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("%s no longer lists the tool %q", t.Server, clean(t.Def.Name))
}

// describeTool writes a tool's definition for a person. Every part is the
// server's text, cleaned of control characters.
func describeTool(w io.Writer, t toolreg.Tool) {
	d := t.Def
	title := d.Title
	if title == "" && d.Annotations != nil {
		title = d.Annotations.Title
	}
	head := clean(t.Name)
	if title != "" {
		head += " — " + clean(title)
	}
	fmt.Fprintf(w, "%s\n  server %s, tool %s\n", head, clean(t.Server), clean(d.Name))
	if d.Description != "" {
		fmt.Fprintln(w)
		writeIndented(w, "  ", d.Description)
	}
	fmt.Fprintln(w, "\nArguments:")
	if n := describeSchema(w, d.InputSchema, "  "); n == 0 {
		fmt.Fprintln(w, "  none")
	}
	if len(d.OutputSchema) > 0 {
		fmt.Fprintln(w, "\nStructured output:")
		if n := describeSchema(w, d.OutputSchema, "  "); n == 0 {
			fmt.Fprintln(w, "  an object")
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Annotations: %s\n", annotationsLine(t))
	fmt.Fprintf(w, "Task support: %s\n", taskSupport(d.Execution))
	fmt.Fprintf(w, "App: %s\n", appLine(apps.ToolUIOf(d)))
}

// writeIndented writes text line by line under prefix.
func writeIndented(w io.Writer, prefix, text string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintln(w, strings.TrimRight(prefix+clean(l), " "))
	}
}

func annotationsLine(t toolreg.Tool) string {
	a := t.Def.Annotations
	if a == nil {
		return "none (the server gave no hints)"
	}
	var parts []string
	for _, h := range []struct {
		name string
		v    *bool
	}{{"read-only", a.ReadOnlyHint}, {"destructive", a.DestructiveHint}, {"idempotent", a.IdempotentHint}, {"open-world", a.OpenWorldHint}} {
		if h.v != nil {
			parts = append(parts, fmt.Sprintf("%s %s", h.name, yesNo(*h.v)))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ") + " (the server's word)"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// taskSupport reads execution.taskSupport: whether a call may (optional)
// or must (required) run as a task.
func taskSupport(execution json.RawMessage) string {
	var x struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(execution, &x) != nil || x.TaskSupport == "" {
		return "none (runs as a plain call)"
	}
	return clean(x.TaskSupport)
}

func appLine(ui apps.ToolUI) string {
	if ui.ResourceURI == "" {
		return "none"
	}
	var who []string
	if ui.ModelVisible() {
		who = append(who, "the model")
	}
	if ui.AppVisible() {
		who = append(who, "its app")
	}
	if len(who) == 0 {
		who = append(who, "no one")
	}
	return clean(ui.ResourceURI) + " (callable by " + strings.Join(who, " and ") + ")"
}
