// Package stdiodial opens the session of a stdio server that a .mcp.json
// describes: what toolreg does for every server when its Options.Dial is
// nil, and what toolreg/remote's Dialer does for the stdio ones. It sits
// below both so that they share it without an exported name in toolreg.
package stdiodial

import (
	"context"
	"fmt"
	"sort"

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
	env := make([]string, 0, len(sc.Env))
	for k, v := range sc.Env {
		env = append(env, k+"="+v.Reveal())
	}
	sort.Strings(env)
	// Unlike StartStdio's own default, a server inherits our whole
	// environment unless its config says otherwise, as under Claude
	// Code, whose configs these are.
	st, err := transport.StartStdio(transport.StdioConfig{
		Command: sc.Command, Args: sc.Args, Env: env, InheritEnv: !sc.SafeEnv, Dir: sc.Cwd, Logger: opts.Logger,
	})
	if err != nil {
		return nil, err
	}
	return mcpclient.Connect(ctx, st, opts)
}
