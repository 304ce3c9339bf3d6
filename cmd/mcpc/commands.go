package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// env is what a command works with: one session today; the tool registry
// will put many servers behind the same commands.
type env struct {
	session *mcpclient.Session
	out     *printer
	cfg     *config
	stderr  io.Writer
}

type command struct {
	usage            string
	minArgs, maxArgs int
	run              func(ctx context.Context, e *env, args []string) error
}

var commands = map[string]command{
	"info":      {"", 0, 0, cmdInfo},
	"tools":     {"", 0, 0, cmdTools},
	"call":      {"<tool> [json-args]", 1, 2, cmdCall},
	"prompts":   {"", 0, 0, cmdPrompts},
	"prompt":    {"<name> [json-args]", 1, 2, cmdPrompt},
	"resources": {"", 0, 0, cmdResources},
	"templates": {"", 0, 0, cmdTemplates},
	"read":      {"<uri>", 1, 1, cmdRead},
	"ping":      {"", 0, 0, cmdPing},
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// toolFailed reports a tool result with isError; the result was printed.
type toolFailed struct{}

func (toolFailed) Error() string { return "the tool reported an error" }

func cmdInfo(ctx context.Context, e *env, _ []string) error {
	s := e.session
	info := struct {
		Server          mcpclient.Implementation     `json:"serverInfo"`
		ProtocolVersion string                       `json:"protocolVersion"`
		Era             string                       `json:"era"`
		Capabilities    mcpclient.ServerCapabilities `json:"capabilities"`
		Instructions    string                       `json:"instructions,omitempty"`
	}{s.ServerInfo(), s.ProtocolVersion(), s.Era().String(), s.Capabilities(), s.Instructions()}
	return e.out.print(info, func(w io.Writer) {
		fmt.Fprintf(w, "server:    %s %s\n", info.Server.Name, info.Server.Version)
		if info.Server.Title != "" {
			fmt.Fprintf(w, "title:     %s\n", info.Server.Title)
		}
		fmt.Fprintf(w, "protocol:  %s (%s era)\n", info.ProtocolVersion, info.Era)
		fmt.Fprintf(w, "offers:    %s\n", strings.Join(offered(info.Capabilities), ", "))
		if info.Instructions != "" {
			fmt.Fprintf(w, "instructions (from the server):\n%s\n", indent(info.Instructions))
		}
	})
}

func offered(c mcpclient.ServerCapabilities) []string {
	var out []string
	if c.Tools != nil {
		out = append(out, "tools")
	}
	if c.Prompts != nil {
		out = append(out, "prompts")
	}
	if c.Resources != nil {
		r := "resources"
		if c.Resources.Subscribe {
			r += " (subscribe)"
		}
		out = append(out, r)
	}
	if c.Logging != nil {
		out = append(out, "logging")
	}
	if c.Completions != nil {
		out = append(out, "completions")
	}
	if len(out) == 0 {
		out = append(out, "nothing declared")
	}
	return out
}

func cmdTools(ctx context.Context, e *env, _ []string) error {
	tools, err := mcpclient.Collect(e.session.Tools(ctx))
	if err != nil {
		return err
	}
	return e.out.print(tools, func(w io.Writer) {
		rows := make([][2]string, len(tools))
		for i, t := range tools {
			rows[i] = [2]string{t.Name, firstLine(t.Description)}
		}
		table(w, rows)
	})
}

func cmdCall(ctx context.Context, e *env, args []string) error {
	var params json.RawMessage
	if len(args) == 2 {
		var err error
		if params, err = jsonObject(args[1]); err != nil {
			return usageError{fmt.Sprintf("call %s: arguments: %v", args[0], err)}
		}
	}
	if e.cfg.progress {
		ctx = mcpclient.WithProgress(ctx, func(p mcpclient.Progress) { printProgress(e.stderr, p) })
	}
	res, err := e.session.CallTool(ctx, args[0], params)
	if err != nil {
		return err
	}
	if err := e.out.print(res, func(w io.Writer) { printContent(w, res.Content, res.StructuredContent) }); err != nil {
		return err
	}
	if res.IsError {
		return toolFailed{}
	}
	return nil
}

func cmdPrompts(ctx context.Context, e *env, _ []string) error {
	prompts, err := mcpclient.Collect(e.session.Prompts(ctx))
	if err != nil {
		return err
	}
	return e.out.print(prompts, func(w io.Writer) {
		rows := make([][2]string, len(prompts))
		for i, p := range prompts {
			var names []string
			for _, a := range p.Arguments {
				n := a.Name
				if !a.Required {
					n += "?"
				}
				names = append(names, n)
			}
			rows[i] = [2]string{p.Name + "(" + strings.Join(names, ", ") + ")", firstLine(p.Description)}
		}
		table(w, rows)
	})
}

func cmdPrompt(ctx context.Context, e *env, args []string) error {
	var promptArgs map[string]string
	if len(args) == 2 {
		if err := json.Unmarshal([]byte(args[1]), &promptArgs); err != nil {
			return usageError{fmt.Sprintf("prompt %s: arguments must be a JSON object of strings: %v", args[0], err)}
		}
	}
	res, err := e.session.GetPrompt(ctx, args[0], promptArgs)
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

func cmdResources(ctx context.Context, e *env, _ []string) error {
	res, err := mcpclient.Collect(e.session.Resources(ctx))
	if err != nil {
		return err
	}
	return e.out.print(res, func(w io.Writer) {
		rows := make([][2]string, len(res))
		for i, r := range res {
			desc := r.Name
			if r.MimeType != "" {
				desc += " (" + r.MimeType + ")"
			}
			rows[i] = [2]string{r.URI, desc}
		}
		table(w, rows)
	})
}

func cmdTemplates(ctx context.Context, e *env, _ []string) error {
	res, err := mcpclient.Collect(e.session.ResourceTemplates(ctx))
	if err != nil {
		return err
	}
	return e.out.print(res, func(w io.Writer) {
		rows := make([][2]string, len(res))
		for i, r := range res {
			rows[i] = [2]string{r.URITemplate, firstLine(r.Name + ": " + r.Description)}
		}
		table(w, rows)
	})
}

func cmdRead(ctx context.Context, e *env, args []string) error {
	res, err := e.session.ReadResource(ctx, args[0])
	if err != nil {
		return err
	}
	return e.out.print(res, func(w io.Writer) {
		for _, c := range res.Contents {
			printResource(w, &c)
		}
	})
}

func cmdPing(ctx context.Context, e *env, _ []string) error {
	if err := e.session.Ping(ctx); err != nil {
		return err
	}
	return e.out.print(map[string]bool{"ok": true}, func(w io.Writer) { fmt.Fprintln(w, "pong") })
}
