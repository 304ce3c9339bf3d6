// Package stdiodial opens the session of a stdio server that a .mcp.json
// describes: what toolreg does for every server when its Options.Dial is
// nil, and what toolreg/remote's Dialer does for the stdio ones. It sits
// below both so that they share it without an exported name in toolreg.
package stdiodial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/plainmcp/plainmcp/internal/errtype"
	"github.com/plainmcp/plainmcp/internal/logging"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport"
)

// Dial starts the stdio server sc describes (its command, never through a
// shell) and opens a session over its standard input and output. Any other
// type of server is an error that names the package that dials it. It is
// safe to call from many goroutines at once.
func Dial(ctx context.Context, sc *mcpjson.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	if t := sc.Transport(); t != "stdio" {
		return nil, fmt.Errorf("a %s server needs a Dial option that speaks HTTP, such as package toolreg/remote's", t)
	}
	s, err := startAndConnect(ctx, sc, opts)
	if err == nil || !exitedOnProbe(ctx, err, opts) {
		return s, err
	}
	// Some servers of the handshake era end on a request they cannot
	// parse, where the 2026 spec expects an error or silence: the Python
	// SDK before 1.9.4 ends its session on any method it does not know,
	// so server/discover, Connect's first request, ends the process. Such
	// a server is started again and spoken to in its era, without the
	// probe: as Claude Code does, which sends initialize first.
	o := mcpclient.Options{}
	if opts != nil {
		o = *opts
	}
	o.Era = mcpclient.EraHandshake
	s, err2 := startAndConnect(ctx, sc, &o)
	switch {
	case err2 == nil:
		return s, nil
	case Exited(err2):
		// It ends without the probe too: the probe was not why (a server
		// that fails as it starts, say). Its second exit says why; the
		// first said the same, during the probe.
		return nil, fmt.Errorf("%w (it was started twice: it exited during the server/discover probe, and again when started for the handshake without it)", err2)
	}
	return nil, fmt.Errorf("%w (started again for the handshake after it exited during the server/discover probe: %v)", err2, err)
}

// exitedOnProbe reports whether Connect failed because the server's
// process ended while Connect was free to probe its era (no era or version
// pinned) and the caller still waits.
func exitedOnProbe(ctx context.Context, err error, opts *mcpclient.Options) bool {
	if ctx.Err() != nil || opts != nil && (opts.Era != 0 || opts.ProtocolVersion != "") {
		return false
	}
	// Its process exited, or it closed its stdout and lives on.
	return Exited(err) || errors.Is(err, io.ErrUnexpectedEOF)
}

// Exited reports whether err says the server's process ended.
func Exited(err error) bool {
	var exit *transport.ExitError
	return errtype.As(err, &exit)
}

// startAndConnect starts the server and opens a session over its standard
// input and output.
func startAndConnect(ctx context.Context, sc *mcpjson.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	env := make([]string, 0, len(sc.Env))
	for k, v := range sc.Env {
		env = append(env, k+"="+v.Reveal())
	}
	sort.Strings(env)
	var logger logging.Logger
	if opts != nil {
		logger = opts.Logger
	}
	// Unlike StartStdio's own default, a server inherits our whole
	// environment unless its config says otherwise, as under Claude
	// Code, whose configs these are.
	st, err := transport.StartStdio(transport.StdioConfig{
		Command: sc.Command, Args: sc.Args, Env: env, InheritEnv: !sc.SafeEnv, Dir: sc.Cwd, Logger: logger,
	})
	if err != nil {
		return nil, err
	}
	return mcpclient.Connect(ctx, st, opts)
}
