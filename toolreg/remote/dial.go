package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/childproc"
	"github.com/plainmcp/plainmcp/internal/logging"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/internal/stdiodial"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// Dialer opens the session of any server a .mcp.json describes: stdio
// servers as a toolreg.Registry without a Dial option does, http (Streamable HTTP, falling back
// to the legacy HTTP+SSE transport) and sse ones over the network, with
// the headers of their config, the headers their headersHelper prints,
// and OAuth for a server that asks for authorization and has no
// credentials in its config. Its Dial method is a toolreg.Options.Dial.
//
// A Dialer keeps, per server, the OAuth client that obtained its tokens,
// so that they are refreshed without the user; each connection starts
// from the token in TokenStore, so one deleted there (a logout) is not
// sent again once the server is reconnected. Its zero value is ready to
// use, with tokens in memory for its life. A Dialer is safe for concurrent
// use; do not copy one after first use.
type Dialer struct {
	// TokenStore keeps the OAuth tokens of http and sse servers; nil
	// means a store in memory for the Dialer's life. A server that
	// answers 401 and has no usable token there fails with a
	// *toolreg.NeedsAuthError, which puts it in toolreg.StateNeedsAuth
	// until Authorize runs the flow with the user.
	TokenStore oauth.TokenStore
	// Logger receives what the OAuth client reports; nil is silent.
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger

	mu      sync.Mutex
	servers map[string]*serverAuth // by name and URL
	mem     *oauth.MemoryStore     // the tokens, without TokenStore
}

// New is toolreg.New for every transport: with opts.Dial unset, the
// servers are dialed by a new Dialer (tokens in memory). A host that lets
// the user authorize servers, or keeps their tokens, makes its Dialer and
// passes its Dial.
func New(ctx context.Context, cfg *toolreg.Config, opts *toolreg.Options) (*toolreg.Registry, error) {
	o := toolreg.Options{}
	if opts != nil {
		o = *opts
	}
	if o.Dial == nil {
		o.Dial = (&Dialer{Logger: o.Logger}).Dial
	}
	return toolreg.New(ctx, cfg, &o)
}

// Dial starts or reaches the server sc describes and opens a session with
// opts, within ctx.
func (d *Dialer) Dial(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
	t := sc.Transport()
	if t != "http" && t != "sse" {
		return stdiodial.Dial(ctx, sc, opts)
	}
	hc, err := httpConfig(sc)
	if err == nil && !sc.HeadersHelper.IsZero() {
		err = addHelperHeaders(ctx, sc, &hc)
	}
	if err != nil {
		return nil, err
	}
	hc.Legacy = t == "sse"
	var at *authAttempt
	if !hasConfiguredCredentials(sc) {
		var layer func(http.RoundTripper) http.RoundTripper
		if layer, at, err = d.authorizeLayer(sc); err != nil {
			return nil, err
		}
		hc.Authorize = layer
	}
	s, err := dialHTTP(ctx, hc, opts)
	if err != nil {
		if need := at.needsAuth(sc.Name, err); need != nil {
			return nil, need
		}
		return nil, err
	}
	return s, nil
}

// dialHTTP opens the HTTP stream and a session over it.
func dialHTTP(ctx context.Context, hc streamhttp.Config, opts *mcpclient.Options) (*mcpclient.Session, error) {
	hs, err := streamhttp.Dial(ctx, hc)
	if err != nil {
		return nil, err
	}
	return mcpclient.Connect(ctx, hs, opts)
}

// httpConfig turns a server's url and headers into a transport config. An
// "Authorization: Bearer …" header, as .mcp.json files often carry, becomes
// the bearer token, and one of any other scheme the transport's raw
// Authorization value; the transport keeps either to the server's origin.
func httpConfig(sc *toolreg.ServerConfig) (streamhttp.Config, error) {
	hc := streamhttp.Config{URL: sc.URL, Headers: map[string]secret.String{}}
	for k, v := range sc.Headers {
		setHeader(&hc, k, v.Reveal())
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
//
// The helper is started as transport starts a stdio server
// (childproc.Start): in a process group of its own, which is killed whole
// when ctx ends or helperTimeout passes (a helper script's curl with it),
// and tied to the host's life, so that a host killed meanwhile leaves no
// helper running (on Linux and Windows; see the README).
func addHelperHeaders(ctx context.Context, sc *toolreg.ServerConfig, hc *streamhttp.Config) error {
	words := strings.Fields(sc.HeadersHelper.Reveal())
	if len(words) == 0 {
		return fmt.Errorf("%w: server %q: headersHelper is empty", mcpjson.ErrConfig, sc.Name)
	}
	ctx, cancel := context.WithTimeout(ctx, helperTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, words[0], words[1:]...)
	cmd.Env = append(os.Environ(), "CLAUDE_CODE_MCP_SERVER_NAME="+sc.Name, "CLAUDE_CODE_MCP_SERVER_URL="+sc.URL)
	var out limitedBuffer
	out.max = maxHelperOutput
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	cmd.Cancel = func() error { childproc.Kill(cmd.Process); return nil }
	if err := runHelper(cmd); err != nil {
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
		if !headerToken(k) || strings.ContainsAny(v, "\r\n\x00") {
			return fmt.Errorf("server %q: headersHelper printed an invalid header", sc.Name)
		}
		setHeader(hc, k, v)
	}
	return nil
}

// runHelper runs cmd (see addHelperHeaders) to its end.
func runHelper(cmd *exec.Cmd) error {
	release, err := childproc.Start(cmd)
	if err != nil {
		return err
	}
	defer release()
	return cmd.Wait()
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

// headerToken reports whether s is an HTTP token (RFC 9110), as a header
// name must be.
func headerToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
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
