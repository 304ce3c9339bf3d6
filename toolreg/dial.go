package toolreg

import (
	"context"
	"net/http"
	"sort"
	"strings"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// dial starts or reaches the server sc describes and opens a session.
func dial(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, string, error) {
	var stream jsonrpc.Stream
	switch sc.Type {
	case "http", "sse":
		hc, err := httpConfig(sc)
		if err != nil {
			return nil, sc.Type, err
		}
		hc.Legacy = sc.Type == "sse"
		hs, err := streamhttp.Dial(ctx, hc)
		if err != nil {
			return nil, sc.Type, err
		}
		stream = hs
	default:
		env := make([]string, 0, len(sc.Env))
		for k, v := range sc.Env {
			env = append(env, k+"="+v)
		}
		sort.Strings(env)
		// Unlike StartStdio's own default, a server inherits our whole
		// environment unless its config says otherwise, as under Claude
		// Code, whose configs these are.
		st, err := transport.StartStdio(transport.StdioConfig{
			Command: sc.Command, Args: sc.Args, Env: env, InheritEnv: !sc.SafeEnv, Dir: sc.Cwd, Logger: opts.Logger,
		})
		if err != nil {
			return nil, "stdio", err
		}
		stream = st
	}
	s, err := mcpclient.Connect(ctx, stream, opts)
	if err != nil {
		return nil, transportName(stream, sc.Type), err
	}
	return s, transportName(s.Stream(), sc.Type), nil
}

// httpConfig turns a server's url and headers into a transport config. An
// "Authorization: Bearer …" header, as .mcp.json files often carry, becomes
// the bearer token, and one of any other scheme the transport's raw
// Authorization value; the transport keeps either to the server's origin.
func httpConfig(sc *ServerConfig) (streamhttp.Config, error) {
	hc := streamhttp.Config{URL: sc.URL, Headers: http.Header{}}
	for k, v := range sc.Headers {
		if strings.EqualFold(k, "Authorization") {
			if token, ok := strings.CutPrefix(v, "Bearer "); ok && !strings.ContainsAny(strings.TrimSpace(token), " \t") {
				hc.BearerToken = strings.TrimSpace(token)
			} else {
				hc.Authorization = strings.TrimSpace(v)
			}
			continue
		}
		hc.Headers.Set(k, v)
	}
	return hc, nil
}

// transportName names the transport a session runs over, for the status:
// "sse" too when a Streamable HTTP server turned out to be a legacy one.
func transportName(stream jsonrpc.Stream, configured string) string {
	switch st := stream.(type) {
	case *transport.Stdio:
		return "stdio"
	case *streamhttp.Stream:
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
