package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// logSink collects log output as text, and tells waitFor of every write.
type logSink struct {
	mu      sync.Mutex
	buf     strings.Builder
	written chan struct{} // closed, and replaced, at each write
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.written != nil {
		close(l.written)
		l.written = nil
	}
	return l.buf.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// next returns the log so far and a channel closed at the next write.
func (l *logSink) next() (string, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.written == nil {
		l.written = make(chan struct{})
	}
	return l.buf.String(), l.written
}

// waitFor waits until a line of the log contains every one of parts: it
// looks again at each write, and gives up after 5 s (of the bubble's clock
// in a synctest test, where that means no write is coming).
func (l *logSink) waitFor(t *testing.T, parts ...string) {
	t.Helper()
	timeout := time.NewTimer(5 * time.Second)
	defer timeout.Stop()
	for {
		log, written := l.next()
		for _, line := range strings.Split(log, "\n") {
			if containsAll(line, parts) {
				return
			}
		}
		select {
		case <-written:
		case <-timeout.C:
			t.Fatalf("no log line has %q; log:\n%s", parts, l.String())
		}
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// client is the test's side of a session: a jsonrpc.Conn talking to a
// Server over an in-memory pipe.
type client struct {
	t         *testing.T
	conn      *jsonrpc.Conn
	notes     chan *jsonrpc.Request
	serverLog *logSink
	clientLog *logSink
}

// start serves a new Server on one end of a pipe and connects a client to
// the other. handler answers the server's requests (sampling, …). Cleanup
// closes the client and checks that Serve returned nil and that no
// goroutine was left behind.
func start(t *testing.T, opts *Options, handler jsonrpc.Handler) *client {
	t.Helper()
	checkGoroutines(t)
	return connectDemo(t, opts, handler)
}

// connectDemo is start without the goroutine check, for a test in a
// synctest bubble: the bubble checks its goroutines itself, and
// leakcheck's deadline on the bubble's clock would pass at once.
func connectDemo(t *testing.T, opts *Options, handler jsonrpc.Handler) *client {
	t.Helper()
	c := &client{t: t, notes: make(chan *jsonrpc.Request, 1000), serverLog: &logSink{}, clientLog: &logSink{}}
	if opts == nil {
		opts = &Options{}
	}
	opts.Logger = slog.New(slog.NewTextHandler(c.serverLog, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a, b := transport.Pipe()
	served := make(chan error, 1)
	go func() { served <- New(opts).Serve(context.Background(), b) }()
	c.conn = jsonrpc.NewConn(a, &jsonrpc.Options{
		Handler:        handler,
		OnNotification: func(ctx context.Context, r *jsonrpc.Request) { c.notes <- r },
		Logger:         slog.New(slog.NewTextHandler(c.clientLog, nil)),
	})
	t.Cleanup(func() {
		c.conn.Close()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("Serve = %v, want nil", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return within 5s of the client closing")
		}
	})
	return c
}

// startInitialized is start followed by initialize with the given
// capabilities (a JSON object) at the latest version.
func startInitialized(t *testing.T, opts *Options, handler jsonrpc.Handler, caps string) *client {
	t.Helper()
	c := start(t, opts, handler)
	c.initialize(LatestVersion, caps)
	return c
}

type initResult struct {
	ProtocolVersion string                     `json:"protocolVersion"`
	Capabilities    map[string]json.RawMessage `json:"capabilities"`
	ServerInfo      struct {
		Name, Title, Version string
	} `json:"serverInfo"`
	Instructions string `json:"instructions"`
}

func (c *client) initialize(version, caps string) initResult {
	c.t.Helper()
	var res initResult
	params := fmt.Sprintf(`{"protocolVersion":%q,"capabilities":%s,"clientInfo":{"name":"test","version":"1"}}`, version, caps)
	if err := c.call("initialize", json.RawMessage(params), &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	if err := c.conn.Notify(context.Background(), "notifications/initialized", nil); err != nil {
		c.t.Fatalf("notifications/initialized: %v", err)
	}
	return res
}

// call makes a request with a 10s bound.
func (c *client) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.conn.Call(ctx, method, params, result)
}

// toolResultWire is a tools/call result as the client sees it.
type toolResultWire struct {
	Content []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Data     string          `json:"data"`
		MimeType string          `json:"mimeType"`
		URI      string          `json:"uri"`
		Name     string          `json:"name"`
		Resource json.RawMessage `json:"resource"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// text returns the text of the result's only content block, failing the
// test if there is not exactly one text block.
func (r toolResultWire) text(t *testing.T) string {
	t.Helper()
	if len(r.Content) != 1 || r.Content[0].Type != "text" {
		t.Fatalf("content = %+v, want one text block", r.Content)
	}
	return r.Content[0].Text
}

// callTool calls a tool with arguments given as a JSON object (or "").
func (c *client) callTool(name, args string) (toolResultWire, error) {
	params := map[string]any{"name": name}
	if args != "" {
		params["arguments"] = json.RawMessage(args)
	}
	var res toolResultWire
	err := c.call("tools/call", params, &res)
	return res, err
}

// mustCallTool is callTool that fails the test on a JSON-RPC error.
func (c *client) mustCallTool(name, args string) toolResultWire {
	c.t.Helper()
	res, err := c.callTool(name, args)
	if err != nil {
		c.t.Fatalf("tools/call %s: %v", name, err)
	}
	return res
}

// nextNote returns the next notification from the server.
func (c *client) nextNote() *jsonrpc.Request {
	c.t.Helper()
	select {
	case n := <-c.notes:
		return n
	case <-time.After(5 * time.Second):
		c.t.Fatal("no notification within 5s")
		return nil
	}
}

// noNote checks that no notification arrives within d.
func (c *client) noNote(d time.Duration) {
	c.t.Helper()
	select {
	case n := <-c.notes:
		c.t.Fatalf("unexpected notification %s %s", n.Method, n.Params)
	case <-time.After(d):
	}
}

// wantCode checks that err is a JSON-RPC error with the code and a message
// containing each of parts.
func wantCode(t *testing.T, err error, code jsonrpc.Code, parts ...string) *jsonrpc.Error {
	t.Helper()
	var e *jsonrpc.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a *jsonrpc.Error with code %d", err, code)
	}
	if e.Code != code || !containsAll(e.Message, parts) {
		t.Fatalf("err = %d %q, want code %d and a message with %q", e.Code, e.Message, code, parts)
	}
	return e
}

func checkGoroutines(t *testing.T) { t.Helper(); leakcheck.Check(t) }
