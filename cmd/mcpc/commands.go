package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/remote"
	"github.com/plainmcp/plainmcp/transport"
)

// env is what a command works with: the selected servers, and the
// registry that connects them once the command has checked its arguments.
type env struct {
	conf   *toolreg.Config // the selected servers
	opts   *toolreg.Options
	dialer *remote.Dialer // opts.Dial's: it keeps the tokens and authorizes
	reg    *toolreg.Registry
	out    *printer
	cfg    *config
	stdin  io.Reader
	stderr io.Writer
	ask    *asker // the person at the terminal; nil when there is none
	visits *visits

	openLine bool // ask: stdout has model text that does not end a line
	// interactive: a person at a terminal can answer (a form, a login)
	interactive bool
}

// maxWatched bounds the resources one watch subscribes to.
const maxWatched = 64

type command struct {
	usage            string
	minArgs, maxArgs int
	run              func(ctx context.Context, e *env, args []string) error
}

var commands = map[string]command{
	"servers":   {"", 0, 0, cmdServers},
	"info":      {"", 0, 0, cmdInfo},
	"ping":      {"", 0, 0, cmdPing},
	"tools":     {"", 0, 0, cmdToolsOrSearch},
	"tool":      {"<tool>", 1, 1, cmdTool},
	"call":      {"<tool> [json-args | @file | -]", 1, 2, cmdCall},
	"prompts":   {"", 0, 0, cmdPrompts},
	"prompt":    {"<name> [json-args | @file | -]", 1, 2, cmdPrompt},
	"resources": {"", 0, 0, cmdResources},
	"templates": {"", 0, 0, cmdTemplates},
	"read":      {"[server:]<uri>", 1, 1, cmdRead},
	"skills":    {"", 0, 0, cmdSkills},
	"skill":     {"<name> [file]", 1, 2, cmdSkill},
	"ask":       {"[--model PROVIDER:NAME] [--yes | --allow TOOL] [--continue FILE] <question>", 1, 1, cmdAsk},
	"login":     {"[--force] [--scope S] <server>", 1, 1, cmdLogin},
	"logout":    {"<server>", 1, 1, cmdLogout},
	"web":       {"[--addr 127.0.0.1:0] [--open] [--yes]", 0, 0, cmdWeb},
	"watch":     {"[--lists] [--read] [--count N] [server:]<uri>…", 0, maxWatched, cmdWatch},
	// reset-project-choices needs no server: runCommand runs it itself.
	"reset-project-choices": {"", 0, 0, nil},
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// After Ctrl-C, the servers are closed without waiting long: the user
// wants out, and stdio servers get EOF on their stdin when mcpc exits
// anyway. (Closing a session first lets out the notifications/cancelled
// of the call it abandoned.)
const interruptedCloseWait = 2 * time.Second

func (c *cli) runCommand(ctx context.Context, cfg *config, args []string) error {
	if len(args) == 0 {
		return usagef("no command given; one of: %s", strings.Join(commandNames(), ", "))
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return usagef("unknown command %q; one of: %s", args[0], strings.Join(commandNames(), ", "))
	}
	if n := len(args) - 1; n < cmd.minArgs || n > cmd.maxArgs {
		return usagef("usage: mcpc %s %s", args[0], cmd.usage)
	}
	if args[0] == "reset-project-choices" {
		return c.resetProjectChoices(ctx)
	}
	conf, err := c.selectServers(ctx, cfg)
	if err != nil {
		return err
	}
	var ask *asker
	if c.interactive {
		ask = newAsker(c.stdin, c.stderr) // a person is there to answer forms and to consent
	}
	v := &visits{out: c.stderr, ask: ask, open: cfg.openURLs}
	opts, dialer, err := registryOptions(cfg, c.stderr, ask, v)
	if err != nil {
		return err
	}
	// A call starts only the server its tool belongs to (with nine
	// servers configured, one starts, not nine); the other commands show
	// or list every server and start them all.
	opts.Lazy = args[0] == "call" || args[0] == "login" || args[0] == "logout"
	eras := loadEraCache(eraCacheFile())
	eras.pin(conf, cfg.protocol)
	opts.Dial = eras.dial(opts.Dial)
	shutdownStdioWith(ctx, opts)
	e := &env{visits: v, conf: conf, opts: opts, dialer: dialer, out: &printer{w: c.stdout, json: cfg.json}, cfg: cfg, stdin: c.stdin, stderr: c.stderr, ask: ask, interactive: c.interactive}
	defer func() {
		if e.reg != nil {
			eras.record(e.reg, conf)
			eras.save()
		}
		e.close(ctx)
		v.unfinished()
	}()
	return cmd.run(ctx, e, args[1:])
}

// connect starts or reaches every selected server. A server that fails is
// reported by the command that needed it.
func (e *env) connect(ctx context.Context) (*toolreg.Registry, error) {
	if e.reg != nil {
		return e.reg, nil
	}
	reg, err := toolreg.New(ctx, e.conf, e.opts)
	if err != nil {
		return nil, err
	}
	e.reg = reg
	return reg, nil
}

// close shuts the servers down, without waiting long after an interrupt
// (see shutdownStdioWith for the stdio servers).
func (e *env) close(ctx context.Context) {
	if e.reg == nil {
		return
	}
	if ctx.Err() == nil {
		e.reg.Close()
		return
	}
	done := make(chan struct{})
	go func() { e.reg.Close(); close(done) }()
	t := time.NewTimer(interruptedCloseWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// shutdownStdioWith makes the stdio servers the registry starts shut down
// with Shutdown(ctx) where their sessions close them, ctx being the run's:
// once the user interrupted mcpc, a server that ignores its stdin's end
// is sent SIGTERM as soon as its stream closes, not after its close
// delay, and a close already waiting stops waiting. Not sooner: a session
// closes its stream only after the notifications/cancelled of the calls
// the interrupt abandoned went out (Session.Close waits a moment for
// them), so the server hears of the request the user gave up on.
func shutdownStdioWith(ctx context.Context, opts *toolreg.Options) {
	wrap := opts.WrapStream
	opts.WrapStream = func(server string, s jsonrpc.Stream) jsonrpc.Stream {
		if st, ok := s.(*transport.Stdio); ok {
			s = stdioShutdown{st, ctx}
		}
		if wrap != nil {
			return wrap(server, s)
		}
		return s
	}
}

// stdioShutdown is a stdio server's stream whose Close is Shutdown(ctx).
type stdioShutdown struct {
	*transport.Stdio
	ctx context.Context // the run's, which an interrupt ends
}

func (s stdioShutdown) Close() error { return s.Shutdown(s.ctx) }

// single returns the one selected server's name, or "" if there are several.
func (e *env) single() string {
	if len(e.conf.Servers) == 1 {
		return e.conf.Servers[0].Name
	}
	return ""
}

// checkServers reports, after a listing, the selected servers that are
// not connected: their part is missing, so the command fails (exit 4,
// or what the cause says)
// although it printed what the others offered. A disabled server is left
// out on purpose, unless it is the one selected, and so is a project server
// not approved.
func (e *env) checkServers() error {
	var failed []error
	for _, s := range e.reg.Servers() {
		if s.State == toolreg.StateConnected && s.ListErr != nil {
			failed = append(failed, s.ListErr)
			continue
		}
		off := s.State == toolreg.StateDisabled || s.State == toolreg.StateUnapproved // with a warning
		if s.State == toolreg.StateConnected || (off && e.single() == "") {
			continue
		}
		failed = append(failed, serverError(s))
	}
	return joinLines(failed)
}

// errorLine describes a server that is not connected, in one line.
func errorLine(s toolreg.ServerStatus) string {
	if s.State == toolreg.StateNeedsAuth && s.Err != nil {
		return oneLine(s.Err.Error()) + fmt.Sprintf("; run: mcpc login %s", s.Name)
	}
	if s.Err != nil && errors.Is(s.Err, context.DeadlineExceeded) {
		return oneLine(s.Err.Error()) + ` (raise the bound with --timeout, or the server's "timeout" in its config)`
	}
	if hint := unapprovedHint[s.Approval]; s.State == toolreg.StateUnapproved && hint != "" {
		return fmt.Sprintf("server %q: %s", s.Name, hint)
	}
	if s.Err != nil {
		return oneLine(s.Err.Error())
	}
	return fmt.Sprintf("server %q is %s", s.Name, s.State)
}

// reasonLine is errorLine for a line that names the server already.
func reasonLine(s toolreg.ServerStatus) string {
	line := errorLine(s)
	for _, prefix := range []string{fmt.Sprintf("server %q: ", s.Name), fmt.Sprintf("server %q ", s.Name)} {
		if r, ok := strings.CutPrefix(line, prefix); ok {
			return r
		}
	}
	return line
}
