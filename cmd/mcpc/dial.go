package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// dialFunc is the shape of toolreg's Options.Dial.
type dialFunc func(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error)

// tracingDial opens each server's session the way the registry's own
// transports do, with every frame written to w as "[server] -> frame" or
// "[server] <- frame", so that the lines of several servers tell apart.
// httpTimeout bounds each HTTP exchange.
func tracingDial(w io.Writer, httpTimeout time.Duration) dialFunc {
	return func(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		trace := func(s jsonrpc.Stream) jsonrpc.Stream { return transport.Trace(s, w, "["+sc.Name+"]") }
		switch sc.Type {
		case "http", "sse":
			hc, err := httpConfig(sc, httpTimeout)
			if err != nil {
				return nil, err
			}
			if sc.Type == "sse" {
				stream, err := transport.DialSSE(ctx, hc)
				if err != nil {
					return nil, err
				}
				return mcpclient.Connect(ctx, trace(stream), opts)
			}
			return connectHTTP(ctx, hc, opts, trace)
		}
		env := make([]string, 0, len(sc.Env))
		for k, v := range sc.Env {
			env = append(env, k+"="+v)
		}
		sort.Strings(env)
		proc, err := transport.StartStdio(transport.StdioConfig{
			Command: sc.Command, Args: sc.Args, Env: env, Dir: sc.Cwd, Logger: opts.Logger,
		})
		if err != nil {
			return nil, err
		}
		return mcpclient.Connect(ctx, trace(proc), opts)
	}
}

// connectHTTP is mcpclient.ConnectHTTP with both transports traced: it
// tries Streamable HTTP and, when the server refuses that first POST with
// 400, 404 or 405, falls back to the legacy HTTP+SSE transport.
func connectHTTP(ctx context.Context, hc transport.HTTPConfig, opts *mcpclient.Options,
	trace func(jsonrpc.Stream) jsonrpc.Stream) (*mcpclient.Session, error) {
	h, err := transport.NewHTTP(hc)
	if err != nil {
		return nil, err
	}
	s, err := mcpclient.Connect(ctx, trace(h), opts)
	var he *transport.HTTPError
	if err == nil || !errors.As(err, &he) || (he.StatusCode != 400 && he.StatusCode != 404 && he.StatusCode != 405) {
		return s, err
	}
	sse, sseErr := transport.DialSSE(ctx, hc)
	if sseErr != nil {
		return nil, fmt.Errorf("%w (the legacy HTTP+SSE transport did not answer either: %v)", err, sseErr)
	}
	return mcpclient.Connect(ctx, trace(sse), opts)
}

// httpConfig turns a server's url and headers into a transport config. An
// "Authorization: Bearer …" header becomes the bearer token, which the
// transport sends to the server's origin only and never prints.
func httpConfig(sc *toolreg.ServerConfig, timeout time.Duration) (transport.HTTPConfig, error) {
	hc := transport.HTTPConfig{URL: sc.URL, Headers: http.Header{}, RequestTimeout: timeout}
	for k, v := range sc.Headers {
		if strings.EqualFold(k, "Authorization") {
			token, ok := strings.CutPrefix(v, "Bearer ")
			if !ok {
				return hc, fmt.Errorf("server %q: only a Bearer Authorization header is supported", sc.Name)
			}
			hc.BearerToken = strings.TrimSpace(token)
			continue
		}
		hc.Headers.Set(k, v)
	}
	return hc, nil
}
