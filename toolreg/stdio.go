package toolreg

import (
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/internal/stdiodial"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport"
)

// Config and ServerConfig are the configuration the registry is made of,
// as package mcpjson reads it from .mcp.json files or a host fills it in.
type (
	Config       = mcpjson.Config
	ServerConfig = mcpjson.ServerConfig
)

// dialStdio opens a stdio server's session: the Dial of a registry whose
// Options.Dial is nil.
var dialStdio = stdiodial.Dial

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
