package toolreg

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// noHTTPTimeout stands for no bound on an HTTP exchange, for sessions
// without a request timeout: the caller's ctx still ends it.
const noHTTPTimeout = 24 * time.Hour

// dial starts or reaches the server sc describes and opens a session.
func dial(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, string, error) {
	switch sc.Type {
	case "http", "sse":
		hc, err := httpConfig(sc)
		if err != nil {
			return nil, sc.Type, err
		}
		// An exchange answered with plain JSON is the whole request: bound
		// it as the session bounds requests, not by the transport's 60 s.
		switch t := opts.RequestTimeout; {
		case t > 0:
			hc.RequestTimeout = t
		case t < 0:
			hc.RequestTimeout = noHTTPTimeout
		}
		if sc.Type == "sse" {
			stream, err := transport.DialSSE(ctx, hc)
			if err != nil {
				return nil, "sse", err
			}
			s, err := mcpclient.Connect(ctx, stream, opts)
			return s, "sse", err
		}
		s, err := mcpclient.ConnectHTTP(ctx, hc, opts)
		if err != nil {
			return nil, "http", err
		}
		return s, transportName(s.Stream(), "http"), nil
	}
	env := make([]string, 0, len(sc.Env))
	for k, v := range sc.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	stream, err := transport.StartStdio(transport.StdioConfig{
		Command: sc.Command, Args: sc.Args, Env: env, Dir: sc.Cwd, Logger: opts.Logger,
	})
	if err != nil {
		return nil, "stdio", err
	}
	s, err := mcpclient.Connect(ctx, stream, opts)
	return s, "stdio", err
}

// httpConfig turns a server's url and headers into a transport config. An
// "Authorization: Bearer …" header, as .mcp.json files often carry, becomes
// the bearer token, which the transport keeps to the server's origin.
func httpConfig(sc *ServerConfig) (transport.HTTPConfig, error) {
	hc := transport.HTTPConfig{URL: sc.URL, Headers: http.Header{}}
	for k, v := range sc.Headers {
		if strings.EqualFold(k, "Authorization") {
			token, ok := strings.CutPrefix(v, "Bearer ")
			if !ok {
				return hc, fmt.Errorf("%w: server %q: only a Bearer Authorization header is supported", ErrConfig, sc.Name)
			}
			hc.BearerToken = strings.TrimSpace(token)
			continue
		}
		hc.Headers.Set(k, v)
	}
	return hc, nil
}

// transportName names the transport a session runs over, for the status.
func transportName(stream jsonrpc.Stream, fallback string) string {
	switch stream.(type) {
	case *transport.Stdio:
		return "stdio"
	case *transport.HTTP:
		return "http"
	case *transport.SSE:
		return "sse"
	}
	return fallback
}
