package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// promptJSON is one prompt in `prompts --json`.
type promptJSON struct {
	Name        string                     `json:"name"`
	Server      string                     `json:"server"`
	Prompt      string                     `json:"prompt"`
	Title       string                     `json:"title,omitempty"`
	Description string                     `json:"description"`
	Arguments   []mcpclient.PromptArgument `json:"arguments"`
}

func cmdPrompts(ctx context.Context, e *env, _ []string) error {
	return listCommand(ctx, e, "prompt", (*toolreg.Registry).Prompts, func(p toolreg.Prompt) promptJSON {
		out := promptJSON{Name: p.Name, Server: p.Server, Prompt: p.Def.Name, Title: p.Def.Title,
			Description: p.Def.Description, Arguments: p.Def.Arguments}
		if out.Arguments == nil {
			out.Arguments = []mcpclient.PromptArgument{}
		}
		return out
	}, func(p promptJSON) groupRow {
		return groupRow{p.Server, p.Name + "(" + promptArgs(p.Arguments) + ")", p.Description}
	})
}

// listCommand is the shape of every list command: connect, list, print the
// list as JSON (toJSON) or as rows grouped by server (row), then fail if a
// selected server could not be listed.
func listCommand[T, J any](ctx context.Context, e *env, noun string,
	list func(*toolreg.Registry, context.Context) ([]T, error), toJSON func(T) J, row func(J) groupRow) error {
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	items, err := list(reg, ctx)
	if err != nil {
		return err
	}
	out := make([]J, len(items))
	for i, it := range items {
		out[i] = toJSON(it)
	}
	err = e.out.print(out, func(w io.Writer) {
		rows := make([]groupRow, len(out))
		for i, j := range out {
			rows[i] = row(j)
		}
		printGroups(w, reg, rows, noun)
	})
	if err != nil {
		return err
	}
	return e.checkServers()
}

// promptArgs lists argument names, an optional one marked with "?".
func promptArgs(args []mcpclient.PromptArgument) string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a.Name
		if !a.Required {
			names[i] += "?"
		}
	}
	return strings.Join(names, ", ")
}

func cmdPrompt(ctx context.Context, e *env, args []string) error {
	var promptArgs map[string]string
	if len(args) == 2 {
		raw, err := readArgs(args[1], e.stdin)
		if err == nil {
			err = json.Unmarshal(raw, &promptArgs)
		}
		if err != nil {
			return usagef("prompt %s: arguments must be a JSON object of strings: %v", args[0], err)
		}
	}
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	prompts, err := reg.Prompts(ctx)
	if err != nil {
		return err
	}
	name, err := e.resolvePrompt(prompts, args[0])
	if err != nil {
		return err
	}
	res, err := reg.GetPrompt(ctx, name, promptArgs)
	if err != nil {
		return err
	}
	return e.out.print(res, func(w io.Writer) {
		if res.Description != "" {
			fmt.Fprintf(w, "# %s\n", res.Description)
		}
		for _, m := range res.Messages {
			fmt.Fprintf(w, "[%s]\n", m.Role)
			printContent(w, []mcpclient.Content{m.Content}, nil)
		}
	})
}

// resolvePrompt finds a prompt's exposed name as resolveTool finds a tool's.
func (e *env) resolvePrompt(prompts []toolreg.Prompt, name string) (string, error) {
	for _, p := range prompts {
		if p.Name == name {
			return name, nil
		}
	}
	if server := e.single(); server != "" {
		q := toolreg.Qualify(server, name)
		for _, p := range prompts {
			if p.Name == q || (p.Server == server && p.Def.Name == name) {
				return p.Name, nil
			}
		}
	}
	return "", unknownName(e, "prompt", name)
}

// resourceJSON is one resource in `resources --json`.
type resourceJSON struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType"`
}

func cmdResources(ctx context.Context, e *env, _ []string) error {
	return listCommand(ctx, e, "resource", (*toolreg.Registry).Resources, func(r toolreg.Resource) resourceJSON {
		return resourceJSON{Server: r.Server, URI: r.Resource.URI, Name: r.Resource.Name, Title: r.Resource.Title,
			Description: r.Resource.Description, MimeType: r.Resource.MimeType}
	}, func(r resourceJSON) groupRow {
		row := groupRow{r.Server, r.URI, r.Name}
		if r.MimeType != "" {
			row.desc += " (" + r.MimeType + ")"
		}
		return row
	})
}

// templateJSON is one resource template in `templates --json`.
type templateJSON struct {
	Server      string `json:"server"`
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

func cmdTemplates(ctx context.Context, e *env, _ []string) error {
	return listCommand(ctx, e, "template", (*toolreg.Registry).ResourceTemplates, func(t toolreg.ResourceTemplate) templateJSON {
		return templateJSON{Server: t.Server, URITemplate: t.Template.URITemplate, Name: t.Template.Name,
			Description: t.Template.Description, MimeType: t.Template.MimeType}
	}, func(t templateJSON) groupRow {
		row := groupRow{t.Server, t.URITemplate, t.Name}
		if t.Description != "" {
			row.desc += ": " + t.Description
		}
		return row
	})
}

func cmdRead(ctx context.Context, e *env, args []string) error {
	server, uri, err := e.resourceTarget(args[0])
	if err != nil {
		return err
	}
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	for _, st := range reg.Servers() {
		if st.Name == server && st.State != toolreg.StateConnected {
			return fmt.Errorf("reading %s: %w", uri, serverError(st))
		}
	}
	res, err := reg.ReadResource(ctx, server, uri)
	if err != nil {
		return err
	}
	return e.out.print(res, func(w io.Writer) {
		for _, c := range res.Contents {
			printResource(w, &c)
		}
	})
}

// resourceTarget splits "server:uri". The part before the first ':' names
// a server only if it is the name of a selected server and what follows is
// itself a URI: with a server called "demo", "demo:demo://docs/readme" is
// demo's demo://docs/readme, while "demo://docs/readme" is a bare URI.
// A bare URI needs a single selected server.
func (e *env) resourceTarget(arg string) (server, uri string, err error) {
	if prefix, rest, ok := strings.Cut(arg, ":"); ok && e.conf.Server(prefix) != nil && hasScheme(rest) {
		return prefix, rest, nil
	}
	if s := e.single(); s != "" {
		return s, arg, nil
	}
	return "", "", usagef("%q: %d servers are selected (%s): say which, as in read SERVER:URI, or with --server NAME",
		arg, len(e.conf.Servers), strings.Join(serverNames(e.conf), ", "))
}

// hasScheme reports whether s starts with a URI scheme and its ':' (RFC
// 3986: a letter, then letters, digits, '+', '-' or '.').
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}
