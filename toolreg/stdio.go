package toolreg

import (
	"context"
	"fmt"
	"sort"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport"
)

// Config and ServerConfig are the configuration the registry is made of,
// as package mcpjson reads it from .mcp.json files or a host fills it in.
type (
	Config       = mcpjson.Config
	ServerConfig = mcpjson.ServerConfig
)

// DialStdio starts the stdio server sc describes (its command, never
// through a shell) and opens a session over its standard input and output:
// what the registry does for every server when Options.Dial is nil. Any
// other type of server is an error that names the package that dials it.
// A Dial of a host's own calls it for the stdio servers it leaves to the
// registry.
func DialStdio(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
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

// transportName names the transport a session runs over, for the status:
// "sse" too when a Streamable HTTP server turned out to be a legacy one
// (a stream that has a Legacy method, as the HTTP transport's has, says).
func transportName(stream jsonrpc.Stream, configured string) string {
	switch st := stream.(type) {
	case *transport.Stdio:
		return "stdio"
	case interface{ Legacy() bool }:
		if st.Legacy() {
			return "sse"
		}
		return "http"
	}
	if configured == "" {
		return "stdio"
	}
	return configured
}

// sessionOptions are the options of the server's next session: the
// host's, with the registry's own additions.
func (s *server) sessionOptions() *mcpclient.Options {
	var opts mcpclient.Options
	if base := s.r.opts.Session; base != nil {
		opts = *base
	}
	opts.Skills = true // the registry lists and loads skills
	if v := s.cfg.ProtocolVersion; v != "" {
		opts.ProtocolVersion, opts.Era = v, 0 // the config's pin wins over the host's
	}
	if wrap := s.r.opts.WrapStream; wrap != nil {
		opts.WrapStream = func(st jsonrpc.Stream) jsonrpc.Stream { return wrap(s.cfg.Name, st) }
	}
	userChanged := opts.OnListChanged
	opts.OnListChanged = func(kind string) {
		s.markStale(kind)
		if userChanged != nil {
			userChanged(kind)
		}
	}
	return &opts
}
