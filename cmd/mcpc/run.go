package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// config is what the flags say.
type config struct {
	stdio       string
	url         string
	headers     []string
	bearerEnv   string
	env         []string
	json        bool
	trace       bool
	timeout     time.Duration
	progress    bool
	sampling    string
	elicitation string
	roots       []string
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// usageError is a mistake on the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("mcpc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.stdio, "stdio", "", "server command line")
	fs.StringVar(&cfg.url, "url", "", "server URL (Streamable HTTP, or legacy HTTP+SSE)")
	fs.Var((*listFlag)(&cfg.headers), "header", `"Name: value" for every HTTP request (repeatable)`)
	fs.StringVar(&cfg.bearerEnv, "bearer-env", "", "name of the environment variable holding a bearer token")
	fs.Var((*listFlag)(&cfg.env), "env", "K=V for the server (repeatable)")
	fs.BoolVar(&cfg.json, "json", false, "print JSON")
	fs.BoolVar(&cfg.trace, "trace", false, "print frames to stderr")
	fs.DurationVar(&cfg.timeout, "timeout", 60*time.Second, "per-request timeout")
	fs.BoolVar(&cfg.progress, "progress", isTerminal(stderr), "print progress to stderr")
	fs.StringVar(&cfg.sampling, "sampling", "", `answer sampling: "echo"`)
	fs.StringVar(&cfg.elicitation, "elicitation", "", `answer elicitation: "defaults" or "decline"`)
	fs.Var((*listFlag)(&cfg.roots), "root", "a root URI to offer (repeatable)")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "mcpc: %v (see the package doc: go doc ./cmd/mcpc)\n", err)
		return exitUsage
	}
	err := runCommand(ctx, &cfg, fs.Args(), stdout, stderr)
	var tf toolFailed
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "mcpc: %v\n", err)
		return exitUsage
	case errors.As(err, &tf):
		return exitFailure // the result itself was printed
	default:
		fmt.Fprintf(stderr, "mcpc: %s\n", oneLine(err.Error()))
		return exitFailure
	}
}

func runCommand(ctx context.Context, cfg *config, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"no command given; one of: " + strings.Join(commandNames(), ", ")}
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return usageError{fmt.Sprintf("unknown command %q; one of: %s", args[0], strings.Join(commandNames(), ", "))}
	}
	if n := len(args) - 1; n < cmd.minArgs || n > cmd.maxArgs {
		return usageError{fmt.Sprintf("usage: mcpc %s %s", args[0], cmd.usage)}
	}
	if (cfg.stdio == "") == (cfg.url == "") {
		return usageError{"give one server: --stdio 'command args…' or --url URL"}
	}
	s, err := connect(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	out := &printer{w: stdout, json: cfg.json}
	return cmd.run(ctx, &env{session: s, out: out, cfg: cfg, stderr: stderr}, args[1:])
}

// connect starts or reaches the server and opens a session with the
// handlers the flags ask for.
func connect(ctx context.Context, cfg *config, stderr io.Writer) (*mcpclient.Session, error) {
	opts := &mcpclient.Options{
		ClientInfo:     mcpclient.Implementation{Name: "mcpc", Version: "0.1.0"},
		RequestTimeout: cfg.timeout,
	}
	if err := wireHandlers(cfg, opts); err != nil {
		return nil, err
	}
	if cfg.url != "" {
		return connectURL(ctx, cfg, opts, stderr)
	}
	words, err := splitWords(cfg.stdio)
	if err != nil {
		return nil, usageError{fmt.Sprintf("--stdio: %v", err)}
	}
	if len(words) == 0 {
		return nil, usageError{"--stdio: empty command"}
	}
	proc, err := transport.StartStdio(transport.StdioConfig{Command: words[0], Args: words[1:], Env: cfg.env})
	if err != nil {
		return nil, err
	}
	var stream jsonrpc.Stream = proc
	if cfg.trace {
		stream = transport.Trace(proc, stderr, words[0])
	}
	s, err := mcpclient.Connect(ctx, stream, opts)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", words[0], err)
	}
	return s, nil
}

// connectURL reaches an HTTP server. With --trace, the Streamable HTTP
// transport is traced (the legacy fallback is not).
func connectURL(ctx context.Context, cfg *config, opts *mcpclient.Options, stderr io.Writer) (*mcpclient.Session, error) {
	hc := transport.HTTPConfig{URL: cfg.url, RequestTimeout: cfg.timeout, Headers: http.Header{}}
	for _, h := range cfg.headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok {
			return nil, usageError{fmt.Sprintf(`--header %q: want "Name: value"`, h)}
		}
		hc.Headers.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	if cfg.bearerEnv != "" {
		if hc.BearerToken = os.Getenv(cfg.bearerEnv); hc.BearerToken == "" {
			return nil, usageError{fmt.Sprintf("--bearer-env: $%s is empty", cfg.bearerEnv)}
		}
	}
	if !cfg.trace {
		return mcpclient.ConnectHTTP(ctx, hc, opts)
	}
	h, err := transport.NewHTTP(hc)
	if err != nil {
		return nil, err
	}
	return mcpclient.Connect(ctx, transport.Trace(h, stderr, cfg.url), opts)
}

// oneLine squeezes a multi-line error (stderr tails) onto one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
