package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/bridge"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// modelFromSpec builds the model a "PROVIDER:NAME" spec names. Its key and
// base URL come from the environment, named as the providers' official
// SDKs name them; a missing key is a usage error naming the variable, and
// the key itself is never printed.
func modelFromSpec(spec string, getenv func(string) string) (bridge.Model, error) {
	provider, name, ok := strings.Cut(spec, ":")
	if !ok || name == "" {
		return nil, usagef("model %q: want PROVIDER:NAME, e.g. openai:gpt-4o-mini or anthropic:claude-sonnet-4-5", spec)
	}
	switch provider {
	case "openai":
		key := getenv("OPENAI_API_KEY")
		if key == "" {
			return nil, usagef("%s: set OPENAI_API_KEY", spec)
		}
		return &bridge.OpenAI{APIKey: key, BaseURL: getenv("OPENAI_BASE_URL"), Model: name}, nil
	case "anthropic":
		key := getenv("ANTHROPIC_API_KEY")
		if key == "" {
			return nil, usagef("%s: set ANTHROPIC_API_KEY", spec)
		}
		return &bridge.Anthropic{APIKey: key, BaseURL: getenv("ANTHROPIC_BASE_URL"), Model: name}, nil
	}
	return nil, usagef("model %q: unknown provider %q; want openai or anthropic", spec, provider)
}

// cmdAsk puts a question to the --model, which may use every selected
// server's tools: the answer goes to stdout, a line per tool call to
// stderr; with --json, the whole transcript goes to stdout.
func cmdAsk(ctx context.Context, e *env, args []string) error {
	if e.cfg.model == "" {
		return usagef("ask needs --model PROVIDER:NAME (openai:NAME or anthropic:NAME)")
	}
	if e.cfg.maxTurns < 0 {
		return usagef("--max-turns %d: want a positive number", e.cfg.maxTurns)
	}
	m, err := modelFromSpec(e.cfg.model, e.cfg.getenv)
	if err != nil {
		return err
	}
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	// For people, the model's text goes to stdout as it comes, each
	// turn's on lines of its own; a script gets the transcript at the end.
	open := false // stdout has text that does not end a line
	endLine := func() {
		if open {
			fmt.Fprintln(e.out.w)
			open = false
		}
	}
	opts := &bridge.RunOptions{MaxTurns: e.cfg.maxTurns, OnTool: func(use, result mcpclient.Content) {
		endLine()
		fmt.Fprintln(e.stderr, toolLine(use, result))
	}}
	if !e.out.json {
		opts.OnText = func(text string) {
			io.WriteString(e.out.w, text)
			open = !strings.HasSuffix(text, "\n")
		}
	}
	tr, err := bridge.Run(ctx, m, reg, args[0], opts)
	endLine()
	if err != nil {
		return err
	}
	if !e.out.json {
		return nil
	}
	return e.out.print(tr, nil)
}

// toolLine summarizes a tool call in one line: its name, its arguments and
// the start of its result, each cut short.
func toolLine(use, result mcpclient.Content) string {
	var text []string
	for _, c := range result.Content {
		if c.Type == "text" {
			text = append(text, c.Text)
		}
	}
	if len(text) == 0 && len(result.StructuredContent) > 0 {
		text = append(text, string(result.StructuredContent))
	}
	status := "→"
	if result.IsError {
		status = "→ error:"
	}
	var args bytes.Buffer
	if json.Compact(&args, use.Input) != nil {
		args.Reset()
		args.Write(use.Input)
	}
	return fmt.Sprintf("tool %s %s %s %s", use.Name, cut(args.String(), 80), status, cut(oneLine(strings.Join(text, " ")), 100))
}

// cut shortens s to at most n bytes, on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
