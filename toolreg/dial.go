package toolreg

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/transport"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// dial starts or reaches the server sc describes and opens a session.
func dial(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options, authorize func(http.RoundTripper) http.RoundTripper) (*mcpclient.Session, string, error) {
	var stream jsonrpc.Stream
	switch sc.Type {
	case "http", "sse":
		hc, err := httpConfig(sc)
		if err == nil && sc.HeadersHelper != "" {
			err = addHelperHeaders(ctx, sc, &hc)
		}
		if err != nil {
			return nil, sc.Type, err
		}
		hc.Legacy = sc.Type == "sse"
		hc.Authorize = authorize
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
	hc := streamhttp.Config{URL: sc.URL, Headers: map[string]secret.String{}}
	for k, v := range sc.Headers {
		setHeader(&hc, k, v)
	}
	return hc, nil
}

// helperTimeout bounds a headersHelper run.
const helperTimeout = 10 * time.Second

// maxHelperOutput bounds what a headersHelper may print.
const maxHelperOutput = 64 << 10

// addHelperHeaders runs the server's headersHelper, without a shell, and
// adds the headers it prints (a JSON object of strings) to hc, replacing
// configured ones of the same name. Its output is a secret: no error
// quotes it, nor what the helper wrote to its standard error.
func addHelperHeaders(ctx context.Context, sc *ServerConfig, hc *streamhttp.Config) error {
	words := strings.Fields(sc.HeadersHelper)
	if len(words) == 0 {
		return fmt.Errorf("%w: server %q: headersHelper is empty", ErrConfig, sc.Name)
	}
	ctx, cancel := context.WithTimeout(ctx, helperTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, words[0], words[1:]...)
	cmd.Env = append(os.Environ(), "CLAUDE_CODE_MCP_SERVER_NAME="+sc.Name, "CLAUDE_CODE_MCP_SERVER_URL="+sc.URL)
	var out limitedBuffer
	out.max = maxHelperOutput
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("server %q: headersHelper did not finish within %v", sc.Name, helperTimeout)
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("server %q: headersHelper failed: %v", sc.Name, ee.ProcessState)
		}
		return fmt.Errorf("server %q: running headersHelper: %w", sc.Name, err)
	}
	if out.over {
		return fmt.Errorf("server %q: headersHelper printed more than %d bytes", sc.Name, maxHelperOutput)
	}
	var headers map[string]string
	if json.Unmarshal(out.buf.Bytes(), &headers) != nil {
		return fmt.Errorf("server %q: headersHelper did not print a JSON object of strings", sc.Name)
	}
	for k, v := range headers {
		if !isHeaderToken(k) || strings.ContainsAny(v, "\r\n\x00") {
			return fmt.Errorf("server %q: headersHelper printed an invalid header", sc.Name)
		}
		setHeader(hc, k, v)
	}
	return nil
}

// setHeader sets the header k of hc to v, replacing one of the same name
// in any case. An "Authorization: Bearer …" value becomes the bearer
// token, one of any other scheme the raw Authorization value.
func setHeader(hc *streamhttp.Config, k, v string) {
	if strings.EqualFold(k, "Authorization") {
		bearer, raw := authorizationValue(v)
		hc.BearerToken, hc.Authorization = secret.New(bearer), secret.New(raw)
		return
	}
	for name := range hc.Headers {
		if strings.EqualFold(name, k) {
			delete(hc.Headers, name)
		}
	}
	hc.Headers[http.CanonicalHeaderKey(k)] = secret.New(v)
}

// authorizationValue splits an Authorization header value into a bearer
// token or, for any other scheme, the raw value.
func authorizationValue(v string) (bearer, raw string) {
	if token, ok := strings.CutPrefix(v, "Bearer "); ok && !strings.ContainsAny(strings.TrimSpace(token), " \t") {
		return strings.TrimSpace(token), ""
	}
	return "", strings.TrimSpace(v)
}

// limitedBuffer keeps at most max bytes and notes whether more came.
type limitedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.over = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
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
