package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/toolreg"
)

// config is what the flags say.
type config struct {
	configs     []string // --config files, in order
	server      string   // --server: the one configured server to use
	name        string   // the ad-hoc server's name
	stdio       string
	url         string
	headers     []string
	bearerEnv   string
	env         []string
	json        bool
	trace       bool
	timeout     time.Duration
	timeoutSet  bool          // --timeout given: it bounds each server's start too
	total       time.Duration // --total-timeout: the cap on a request that reports progress
	protocol    string
	progress    bool
	terminal    bool // stderr is a terminal: progress rewrites one line
	sampling    string
	elicitation string
	force       bool   // login --force
	scope       string // login --scope
	roots       []string
	model       string // --model, for ask: PROVIDER:NAME
	trust       bool   // --trust-project: start the project's unapproved servers this once
	maxTurns    int    // --max-turns, for ask; 0 is the default
	ask         askConfig
	addr        string // --addr, for web
	open        bool   // --open, for web
	openURLs    bool   // --open-urls: open the pages servers ask to show, without asking
	lists       bool   // watch --lists
	read        bool   // watch --read
	count       int    // watch --count: the events to print before ending; 0 is no end
	search      string // tools --search: the query to rank the tools by
	getenv      func(string) string
	serve       func(*toolreg.ServerConfig) jsonrpc.Stream // see cli.serve
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// usageError is a mistake on the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

// cli is one run of mcpc: where it looks for .mcp.json and its standard
// streams. Tests make their own, so that they need not change the process's
// working directory.
type cli struct {
	dir    string // where the default .mcp.json is looked for; "" is the working directory
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer // shared by trace, progress and errors: see lockedWriter

	interactive bool // a person at a terminal can answer forms
	terminal    bool // stderr is a terminal whatever it looks like (tests)

	getenv func(string) string // the environment; nil is the process's

	// serve, if set, serves a configured server in this process and
	// returns the client's end of its stream, or nil to dial the server as
	// its config says. mcpc's tests serve their demo servers so wherever
	// the process is not what they test: a spawned test binary costs more
	// than the command it serves.
	serve func(*toolreg.ServerConfig) jsonrpc.Stream
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &cli{stdin: os.Stdin, stdout: stdout, stderr: stderr}
	c.interactive = isTerminal(os.Stdin) && isTerminal(stderr)
	return c.run(ctx, args)
}

// run parses args, runs the command and returns the exit code. Every
// failure is reported as one line on stderr.
//
// Everything mcpc prints goes through a safe.Writer, the one sink of its
// standard output and error: tool output, descriptions, errors quoting a
// server, a model's text — none reaches the terminal with a control
// character (an escape sequence, a carriage return, a bidirectional
// override) in it, however it was built. With --json, stdout escapes as
// JSON does, so the document stays valid.
func (c *cli) run(ctx context.Context, args []string) int {
	terminal := c.terminal || isTerminal(c.stderr)
	errs := &lockedWriter{w: safe.NewWriter(c.stderr), raw: c.stderr}
	c.stderr = errs
	defer errs.flush()
	cfg, rest, err := parseFlags(args, terminal)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, usage)
		return exitOK
	}
	out := safe.NewWriter(c.stdout)
	if err == nil && cfg.json {
		out = safe.NewJSONWriter(c.stdout)
	}
	c.stdout = out
	defer out.Flush()
	if err == nil {
		cfg.getenv, cfg.serve = c.getenv, c.serve
		if cfg.getenv == nil {
			cfg.getenv = os.Getenv
		}
		err = c.runCommand(ctx, cfg, rest)
	}
	code := exitCode(ctx, err)
	switch code {
	case exitOK:
	case exitInterrupted, exitHangup, exitTerminated:
		fmt.Fprintln(c.stderr, "mcpc: interrupted")
	case exitUsage:
		fmt.Fprintf(c.stderr, "mcpc: %s (see mcpc -h)\n", oneLine(err.Error()))
	default:
		fmt.Fprintf(c.stderr, "mcpc: %s\n", oneLine(err.Error()))
	}
	return code
}

// parseFlags reads the flags, which may come before the command, after it
// or between its arguments; "--" ends them.
func parseFlags(args []string, terminal bool) (*config, []string, error) {
	cfg := &config{}
	fs := flag.NewFlagSet("mcpc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var((*listFlag)(&cfg.configs), "config", "a config file in .mcp.json format (repeatable)")
	fs.StringVar(&cfg.server, "server", "", "use only this configured server")
	fs.StringVar(&cfg.name, "name", "server", "the name of the --stdio or --url server")
	fs.StringVar(&cfg.stdio, "stdio", "", "server command line")
	fs.StringVar(&cfg.url, "url", "", "server URL (Streamable HTTP, or legacy HTTP+SSE)")
	fs.Var((*listFlag)(&cfg.headers), "header", `"Name: value" for every HTTP request (repeatable)`)
	fs.StringVar(&cfg.bearerEnv, "bearer-env", "", "name of the environment variable holding a bearer token")
	fs.Var((*listFlag)(&cfg.env), "env", "K=V for the server (repeatable)")
	fs.BoolVar(&cfg.json, "json", false, "print JSON")
	fs.BoolVar(&cfg.trace, "trace", false, "print frames to stderr")
	cfg.timeout = 60 * time.Second
	fs.Var((*durationFlag)(&cfg.timeout), "timeout", `how long a request may go without an answer or progress (default 60s, tool calls 10m): a duration such as "30s", or milliseconds`)
	fs.Var((*durationFlag)(&cfg.total), "total-timeout", `the most a request that keeps reporting progress may take (default 30m)`)
	fs.StringVar(&cfg.protocol, "protocol", "", "pin the protocol version (2024-11-05 … 2026-07-28)")
	fs.BoolVar(&cfg.progress, "progress", terminal, "print progress to stderr")
	fs.StringVar(&cfg.sampling, "sampling", "", `answer sampling: "echo" or PROVIDER:NAME`)
	fs.StringVar(&cfg.model, "model", "", "the model ask uses: PROVIDER:NAME")
	fs.IntVar(&cfg.maxTurns, "max-turns", 0, "the most model turns ask takes")
	cfg.ask.register(fs) // --yes too, which web reads
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:0", "web: the page's loopback address")
	fs.BoolVar(&cfg.open, "open", false, "web: open the page in the browser")
	fs.StringVar(&cfg.elicitation, "elicitation", "", `answer elicitation: "defaults" or "decline"`)
	fs.BoolVar(&cfg.lists, "lists", false, "watch: the servers' tools, prompts and resources lists too")
	fs.BoolVar(&cfg.read, "read", false, "watch: read a resource again when it changes")
	fs.IntVar(&cfg.count, "count", 0, "watch: end after this many events")
	fs.StringVar(&cfg.search, "search", "", "tools: the tools that best answer QUERY, ranked")
	fs.BoolVar(&cfg.openURLs, "open-urls", false, "open the pages servers ask the user to visit (URL-mode elicitation) without asking")
	fs.BoolVar(&cfg.force, "force", false, "login: authorize anew even with a token that works")
	fs.StringVar(&cfg.scope, "scope", "", "login: more scopes to ask for, space-separated")
	fs.Var((*listFlag)(&cfg.roots), "root", "a root URI to offer (repeatable)")
	fs.BoolVar(&cfg.trust, "trust-project", false, "start the project's .mcp.json servers not approved yet, this once")
	cfg.terminal = terminal
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, nil, err
			}
			return nil, nil, usageError{err.Error()}
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			rest = append(rest, left...)
			break
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
	fs.Visit(func(f *flag.Flag) { cfg.timeoutSet = cfg.timeoutSet || f.Name == "timeout" })
	return cfg, rest, nil
}

// maxErrorLine bounds a line of text quoted from a server — an error
// with a stderr tail or an error body — which oneLine cuts there.
const maxErrorLine = 2000

// oneLine squeezes a multi-line text (an error, a stderr tail) onto one
// printable line of at most maxErrorLine bytes.
func oneLine(s string) string {
	return safe.Line(s, maxErrorLine)
}

// isTerminal reports whether v is a terminal: a character device that is
// not the null device (which is one too, and would have progress drawn
// into it, or forms asked of it).
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}

// durationFlag takes what a config's timeout takes: a duration such as
// "30s", or a number of milliseconds.
type durationFlag time.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }

func (d *durationFlag) Set(v string) error {
	if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
		*d = durationFlag(time.Duration(ms * float64(time.Millisecond)))
		return nil
	}
	t, err := time.ParseDuration(v)
	if err != nil || t < 0 {
		return fmt.Errorf(`want a duration such as "30s", or milliseconds (a number)`)
	}
	*d = durationFlag(t)
	return nil
}

// lockedWriter serializes writes: trace lines, progress and errors come
// from several goroutines (one per server) to the same stderr. What is
// written goes through w, which makes it printable; raw is the terminal
// itself, for mcpc's own control sequences (draw).
type lockedWriter struct {
	mu  sync.Mutex
	w   *safe.Writer
	raw io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// draw writes mcpc's own terminal control sequence ctl as it is, then
// text made printable, in one go.
func (l *lockedWriter) draw(ctl, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Flush()
	io.WriteString(l.raw, ctl)
	io.WriteString(l.w, text)
}

func (l *lockedWriter) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Flush()
}
