package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/bridge"
	"github.com/plainmcp/plainmcp/internal/offer"
	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/toolreg"
)

// modelFromSpec builds the model a "PROVIDER:NAME" spec names. Its key and
// base URL come from the environment, named as the providers' official
// SDKs name them; a missing key is a usage error naming the variable
// (except for an OpenAI-compatible server on loopback, which often has
// none), and the key itself is never printed.
func modelFromSpec(spec string, cfg *config) (bridge.Model, error) {
	provider, name, ok := strings.Cut(spec, ":")
	if !ok || name == "" {
		return nil, usagef("model %q: want PROVIDER:NAME, e.g. openai:gpt-4o-mini or anthropic:claude-sonnet-4-5", spec)
	}
	switch provider {
	case "openai":
		key, base := cfg.getenv("OPENAI_API_KEY"), cfg.getenv("OPENAI_BASE_URL")
		if key == "" && !loopbackURL(base) {
			return nil, usagef("%s: set OPENAI_API_KEY (or OPENAI_BASE_URL to a server on this machine that needs none)", spec)
		}
		switch f := cfg.ask.tokenField; f {
		case "", "max_completion_tokens", "max_tokens":
		default:
			return nil, usagef("--max-tokens-field %q: want max_completion_tokens or max_tokens", f)
		}
		return &bridge.OpenAI{APIKey: secret.New(key), BaseURL: base, Model: name, TokenLimitField: cfg.ask.tokenField}, nil
	case "anthropic":
		key := cfg.getenv("ANTHROPIC_API_KEY")
		if key == "" {
			return nil, usagef("%s: set ANTHROPIC_API_KEY", spec)
		}
		return &bridge.Anthropic{APIKey: secret.New(key), BaseURL: cfg.getenv("ANTHROPIC_BASE_URL"), Model: name}, nil
	}
	return nil, usagef("model %q: unknown provider %q; want openai or anthropic", spec, provider)
}

// loopbackURL reports whether raw is an http or https URL of this machine.
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	h := u.Hostname()
	ip := net.ParseIP(h)
	return strings.EqualFold(h, "localhost") || ip != nil && ip.IsLoopback()
}

// cmdAsk puts a question to the --model, which may use the selected
// servers' tools: the answer goes to stdout, the tools offered and a line
// per tool call to stderr; with --json, the whole transcript goes to
// stdout. Tool calls need consent (see consent), but for tools marked
// read-only by a server --trust-annotations names.
func cmdAsk(ctx context.Context, e *env, args []string) error {
	if e.cfg.model == "" {
		return usagef("ask needs --model PROVIDER:NAME (openai:NAME or anthropic:NAME)")
	}
	if e.cfg.maxTurns < 0 {
		return usagef("--max-turns %d: want a positive number", e.cfg.maxTurns)
	}
	switch e.cfg.ask.toolSearch {
	case "auto", "on", "off":
	default:
		return usagef("--tool-search %q: want auto, on or off", e.cfg.ask.toolSearch)
	}
	m, err := modelFromSpec(e.cfg.model, e.cfg)
	if err != nil {
		return err
	}
	history, err := loadConversation(e.cfg.ask.cont)
	if err != nil {
		return err
	}
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	opts := e.runOptions(history)
	opts.Retry = e.retryAsk(reg)
	if all, err := reg.ModelTools(ctx); err == nil {
		fmt.Fprintln(e.stderr, offeredLine(offer.Select(all, opts.Tools, opts.ToolFilter), opts))
	}
	tr, err := bridge.Run(ctx, m, reg, args[0], opts)
	e.endLine()
	if tr != nil && tr.Deferred > 0 {
		fmt.Fprintf(e.stderr, "tool search: the last turn offered %d tool definitions (search_tools and the tools found), deferred %d\n",
			len(tr.Tools), tr.Deferred)
	}
	if serr := saveConversation(e.cfg.ask.cont, tr); serr != nil && err == nil {
		err = serr
	}
	if err != nil || !e.out.json {
		return err
	}
	return e.out.print(tr, nil)
}

// runOptions are ask's options for bridge.Run. For people, the model's
// text goes to stdout as it comes, each turn's on lines of its own, with
// every control character but newline and tab dropped; a script gets the
// transcript at the end.
func (e *env) runOptions(history []mcpclient.SamplingMessage) *bridge.RunOptions {
	c := &consent{allow: e.cfg.ask.allow, yes: e.cfg.ask.yes, ask: e.ask, out: e.stderr}
	opts := &bridge.RunOptions{MaxTurns: e.cfg.maxTurns, History: history, Approve: c.approve,
		TrustAnnotations: e.cfg.ask.trustsAnnotations(),
		NoStream:         e.cfg.ask.noStream,
		ToolSearch:       e.cfg.ask.toolSearch,
		OnTool: func(use, result mcpclient.Content) {
			e.endLine()
			fmt.Fprintln(e.stderr, toolLine(use, result))
		}}
	if len(e.cfg.ask.tools) > 0 {
		filter := toolreg.ToolFilter{Allow: e.cfg.ask.tools}
		opts.ToolFilter = func(t toolreg.Tool) bool { return filter.Permits(t.Name) }
	}
	if !e.out.json {
		opts.OnText = func(text string) {
			if text = safe.Strip(text); text != "" {
				io.WriteString(e.out.w, text)
				e.openLine = !strings.HasSuffix(text, "\n")
			}
		}
	}
	return opts
}

// retryAsk is ask's bridge.RunOptions.Retry: what a server needs of the
// person before a call of the model's is worth making again — more scope
// (a step-up, as call does), pages to visit (-32042) — asked about one
// call at a time, at the terminal, never decided by the model. A step
// that fails is said on stderr; the model reads the call's failure.
func (e *env) retryAsk(reg *toolreg.Registry) func(context.Context, toolreg.Call, error) bool {
	var one sync.Mutex
	return func(ctx context.Context, call toolreg.Call, err error) bool {
		one.Lock()
		defer one.Unlock()
		again, serr := e.stepUp(ctx, reg, call.Server, err)
		if serr == nil && !again {
			again, serr = e.visits.requiredBy(ctx, call.Server, err, e.cfg.timeout)
		}
		if serr != nil {
			e.endLine()
			fmt.Fprintf(e.stderr, "mcpc: %s: %s\n", clean(call.Name), oneLine(clean(serr.Error())))
		}
		return again && serr == nil
	}
}

// endLine ends the line of model text on stdout, if one is open.
func (e *env) endLine() {
	if e.openLine {
		fmt.Fprintln(e.out.w)
		e.openLine = false
	}
}

// offeredLine names the tools offered to the model, deciding tool search
// by bridge.Run's own rule (internal/offer).
func offeredLine(tools []toolreg.Tool, opts *bridge.RunOptions) string {
	if len(tools) == 0 {
		return "tools offered: none"
	}
	if offer.SearchOn(tools, opts.ToolSearch, opts.ContextWindow, opts.ToolSearchShare) {
		return fmt.Sprintf("tool search: 1 tool definition offered (search_tools), %d deferred until the model finds them", len(tools))
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return fmt.Sprintf("tools offered (%d): %s", len(tools), clean(strings.Join(names, ", ")))
}

// toolLine summarizes a tool call in one line: its name, its arguments and
// the start of its result, each cut short and stripped of control
// characters.
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
	return fmt.Sprintf("tool %s %s %s %s", clean(cut(use.Name, 80)), clean(cut(args.String(), 80)), status, cut(oneLine(clean(strings.Join(text, " "))), 100))
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
