package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/task"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/toolreg/remote"
	"github.com/plainmcp/plainmcp/transport"
)

// defaultConfig is the project's file among those mcpc reads when no
// server is named on the command line: Claude Code's files for the working
// directory (see mcpjson.ClaudeCodeFiles).
const defaultConfig = ".mcp.json"

// adHocSource is the Source of a server given by --stdio or --url.
const adHocSource = "the command line"

// selectServers returns the servers this run uses: the ad-hoc one, or
// those of the config files, narrowed by --server.
func (c *cli) selectServers(cfg *config) (*toolreg.Config, error) {
	adHoc := cfg.stdio != "" || cfg.url != ""
	var conf *toolreg.Config
	switch {
	case cfg.stdio != "" && cfg.url != "":
		return nil, usagef("give --stdio or --url, not both")
	case adHoc && len(cfg.configs) > 0:
		return nil, usagef("give --config or a --stdio/--url server, not both")
	case !adHoc && (len(cfg.env) > 0 || len(cfg.headers) > 0 || cfg.bearerEnv != ""):
		return nil, usagef("--env, --header and --bearer-env apply to a --stdio or --url server")
	case adHoc:
		sc, err := adHocServer(cfg)
		if err != nil {
			return nil, err
		}
		conf = &toolreg.Config{Servers: []*toolreg.ServerConfig{sc}}
	default:
		var err error
		if conf, err = c.loadConfig(cfg.configs, cfg.server); err != nil {
			return nil, err
		}
		conf = c.approve(conf, cfg)
	}
	if cfg.server == "" {
		return conf, nil
	}
	return narrow(conf, cfg.server)
}

// narrow keeps the --server one of conf's servers: one that exists and,
// from a project's .mcp.json, is approved.
func narrow(conf *toolreg.Config, name string) (*toolreg.Config, error) {
	sc := conf.Server(name)
	if sc == nil {
		return nil, configf("--server %q: no such server; configured: %s", name, strings.Join(serverNames(conf), ", "))
	}
	switch sc.Approval {
	case mcpjson.Pending:
		return nil, refusedError{fmt.Sprintf("--server %q: %s", name, unapprovedHint[mcpjson.Pending])}
	case mcpjson.Rejected:
		return nil, refusedError{fmt.Sprintf("--server %q: %s", name, unapprovedHint[mcpjson.Rejected])}
	}
	return &toolreg.Config{Servers: []*toolreg.ServerConfig{sc}}, nil
}

// unapprovedHint says, for each approval state that keeps a project
// server from starting, why and the ways out that work.
var unapprovedHint = map[string]string{
	mcpjson.Pending:  "the project's server is not approved yet: answer y or o when mcpc asks at a terminal, or pass --trust-project to start it once",
	mcpjson.Rejected: "the project's server was refused (never, kept in ~/.claude.json's disabledMcpjsonServers): pass --trust-project to start it once, or run mcpc reset-project-choices to be asked again",
}

// loadConfig reads the --config files or, if none was given, Claude Code's
// files for the working directory, as Claude Code would: the user's and
// the project's servers in ~/.claude.json, and .mcp.json, any of which may
// be missing. What the load notices (keys mcpc does not use) is a warning
// on stderr, and so is an entry it leaves out: the other servers work. An
// entry left out is a config error when it is the --server one (server),
// and so is a --config file that is missing or leaves no server.
func (c *cli) loadConfig(paths []string, server string) (*toolreg.Config, error) {
	opts := &mcpjson.ConfigOptions{}
	if c.stderr != nil {
		opts.Logger = slog.New(&warnings{w: c.stderr})
	}
	var conf *toolreg.Config
	var err error
	if len(paths) > 0 {
		conf, err = mcpjson.LoadConfig(paths, opts)
	} else {
		var files []mcpjson.ConfigFile
		if files, err = mcpjson.ClaudeCodeFiles(c.dir); err != nil {
			return nil, err
		}
		conf, err = mcpjson.LoadConfigFiles(files, opts)
	}
	if err := c.configProblems(conf, err, paths, server); err != nil {
		return nil, err
	}
	switch {
	case len(conf.Servers) == 0 && len(paths) == 0:
		return nil, configf("no MCP servers configured (none in %s or in Claude Code's ~/.claude.json): create %s, or pass --config FILE, --stdio 'command args' or --url URL",
			filepath.Join(c.dir, defaultConfig), defaultConfig)
	case len(conf.Servers) == 0:
		return nil, configf("no MCP servers configured in the --config files: pass other files, --stdio 'command args' or --url URL")
	}
	return conf, nil
}

// configProblems judges what loading the config reported: an entry left
// out is fatal only when it is the server asked for, or when nothing could
// be loaded; otherwise each is one warning line.
func (c *cli) configProblems(conf *toolreg.Config, err error, paths []string, server string) error {
	for _, ce := range mcpjson.ConfigErrors(err) {
		if server != "" && ce.Server == server {
			return configError{ce.Error()}
		}
	}
	switch {
	case len(paths) > 0 && errors.Is(err, fs.ErrNotExist),
		err != nil && len(conf.Servers) == 0:
		return configError{oneLine(err.Error())}
	case err != nil && c.stderr != nil:
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(c.stderr, "mcpc: warning: %s (left out)\n", oneLine(line))
		}
	}
	return nil
}

func serverNames(conf *toolreg.Config) []string {
	names := make([]string, len(conf.Servers))
	for i, s := range conf.Servers {
		names[i] = s.Name
	}
	return names
}

// adHocServer describes the server of --stdio or --url. Error messages
// never repeat a header's or a variable's value.
func adHocServer(cfg *config) (*toolreg.ServerConfig, error) {
	if cfg.name == "" || strings.ContainsFunc(cfg.name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, usagef("--name: want a name without control characters")
	}
	sc := &toolreg.ServerConfig{Name: cfg.name, Source: adHocSource}
	if cfg.stdio != "" {
		if len(cfg.headers) > 0 || cfg.bearerEnv != "" {
			return nil, usagef("--header and --bearer-env apply to a --url server")
		}
		return sc, adHocStdio(sc, cfg)
	}
	if len(cfg.env) > 0 {
		return nil, usagef("--env applies to a --stdio server")
	}
	return sc, adHocHTTP(sc, cfg)
}

// adHocStdio is the command and environment of a --stdio server.
func adHocStdio(sc *toolreg.ServerConfig, cfg *config) error {
	words, err := splitWords(cfg.stdio)
	if err != nil {
		return usagef("--stdio: %v", err)
	}
	if len(words) == 0 {
		return usagef("--stdio: empty command")
	}
	sc.Type, sc.Command, sc.Args = "stdio", words[0], words[1:]
	for _, kv := range cfg.env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("--env: want NAME=value")
		}
		if sc.Env == nil {
			sc.Env = map[string]secret.String{}
		}
		sc.Env[k] = secret.New(v)
	}
	return nil
}

// adHocHTTP is the URL and headers of a --url server: a header given twice
// is one with both values; --bearer-env's replaces any Authorization.
func adHocHTTP(sc *toolreg.ServerConfig, cfg *config) error {
	sc.Type, sc.URL, sc.Headers = "http", cfg.url, map[string]secret.String{}
	for _, h := range cfg.headers {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return usagef(`--header: want "Name: value"`)
		}
		value = strings.TrimSpace(value)
		if prev, dup := sc.Headers[name]; dup {
			value = prev.Reveal() + ", " + value
		}
		sc.Headers[name] = secret.New(value)
	}
	if cfg.bearerEnv == "" {
		return nil
	}
	token := os.Getenv(cfg.bearerEnv)
	if token == "" {
		return usagef("--bearer-env: $%s is empty", cfg.bearerEnv)
	}
	for k := range sc.Headers {
		if strings.EqualFold(k, "Authorization") {
			delete(sc.Headers, k)
		}
	}
	sc.Headers["Authorization"] = secret.New("Bearer " + token)
	return nil
}

// registryOptions are the registry's options: the session handlers the
// flags ask for, every transport dialed by the Dialer returned (with the
// token file) and, with --trace, every server's stream traced.
func registryOptions(cfg *config, stderr io.Writer, ask *asker, v *visits) (*toolreg.Options, *remote.Dialer, error) {
	session := &mcpclient.Options{
		ClientInfo:        mcpclient.Implementation{Name: "mcpc", Version: "0.1.0"},
		MaxRequestTimeout: cfg.total,
		// mcpc lists and loads skills (toolreg/skills), so it declares them.
		Skills: true,
		// mcpc opts in to tasks: a tool that must run as one is called,
		// and polled to its result, like any other.
		Tasks: &task.Options{},
	}
	if cfg.timeoutSet {
		session.RequestTimeout = cfg.timeout // else the library's: 60s, tool calls 10m
	}
	if cfg.protocol != "" {
		session.ProtocolVersion = cfg.protocol
	}
	if err := wireHandlers(cfg, session, ask); err != nil {
		return nil, nil, err
	}
	dialer := &remote.Dialer{}
	if store := tokenStore(); store != nil {
		dialer.TokenStore = store
	}
	opts := &toolreg.Options{Session: session, Dial: withVisits(cfg, inProcess(cfg.serve, dialer.Dial), v)}
	opts.OnToolCall = func(c toolreg.Call, _ time.Duration, _ error) { v.called(c.Server) }
	// Claude Code's variables for the timeouts its configs leave out;
	// --timeout, given, bounds the starts instead.
	opts.StartupTimeout = envMillis(cfg.getenv, "MCP_TIMEOUT")
	opts.ToolTimeout = envMillis(cfg.getenv, "MCP_TOOL_TIMEOUT")
	if cfg.timeoutSet {
		opts.StartupTimeout = cfg.timeout // a server's own "timeout" still wins
	}
	if cfg.trace {
		// Every frame to stderr as "[server] -> frame" or "[server] <- frame",
		// so that the lines of several servers tell apart.
		opts.WrapStream = func(server string, s jsonrpc.Stream) jsonrpc.Stream {
			return transport.Trace(s, stderr, "["+server+"]")
		}
	}
	return opts, dialer, nil
}

// inProcess dials the servers serve serves in this process (see
// cli.serve), and every other one with dial.
func inProcess(serve func(*toolreg.ServerConfig) jsonrpc.Stream, dial func(context.Context, *toolreg.ServerConfig, *mcpclient.Options) (*mcpclient.Session, error)) func(context.Context, *toolreg.ServerConfig, *mcpclient.Options) (*mcpclient.Session, error) {
	if serve == nil {
		return dial
	}
	return func(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		if stream := serve(sc); stream != nil {
			return mcpclient.Connect(ctx, stream, opts)
		}
		return dial(ctx, sc, opts)
	}
}

// envMillis is the duration in milliseconds that the variable name holds,
// or zero if it is unset or not a positive number.
func envMillis(getenv func(string) string, name string) time.Duration {
	if getenv == nil {
		getenv = os.Getenv
	}
	ms, err := strconv.ParseInt(strings.TrimSpace(getenv(name)), 10, 64)
	if err != nil || ms <= 0 || ms > int64(time.Duration(1<<62)/time.Millisecond) {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}
