package main

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/task"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/remote"
	"github.com/plainmcp/plainmcp/transport"
)

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
