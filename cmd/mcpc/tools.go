package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
