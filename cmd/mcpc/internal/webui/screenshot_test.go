package webui

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/remote"
	"github.com/plainmcp/plainmcp/transport"
)

// screenshotsEnv names the folder TestBrowserScreenshots writes the
// README's pictures of the page to (make screenshots: docs/).
const screenshotsEnv = "PLAINMCP_SCREENSHOTS"

// TestBrowserScreenshots takes the README's pictures of the page, light
// and dark, over the three test servers: a call's form and result, a
// sampling request waiting for the person, and the notifications.
func TestBrowserScreenshots(t *testing.T) {
	dir := os.Getenv(screenshotsEnv)
	if dir == "" {
		t.Skip("set " + screenshotsEnv + " to a folder to take the README's screenshots (make screenshots)")
	}
	srv := startShowcase(t)
	b := browsertest.Start(t)
	b.Go(srv.URL() + `?call=mcp__script__greet&args=%7B%22name%22%3A%22Ada%22%2C%22times%22%3A2%2C%22mood%22%3A%22warm%22%7D`)
	b.Wait("the consent dialog", `return document.getElementById("consent").open ? "ok" : ""`, 30*time.Second)
	b.Click("#consent-yes")
	b.Wait("the result", resultText, 30*time.Second)
	b.Screenshot(filepath.Join(dir, "web-call.png"))

	b.Cmd("POST", "/goog/cdp/execute", map[string]any{"cmd": "Emulation.setEmulatedMedia",
		"params": map[string]any{"features": []any{map[string]string{"name": "prefers-color-scheme", "value": "dark"}}}}, nil)
	openTool(t, b, "mcp__asker__ask")
	b.Click("#call-btn")
	b.Wait("the sampling request", `return document.querySelector("#ask-list textarea") ? "ok" : ""`, 30*time.Second)
	b.Eval(labelled+` el.value = "Teal, like the sea at dusk."; return null`, nil, "Reply")
	b.Screenshot(filepath.Join(dir, "web-sampling-dark.png"))
	b.Eval(`[...document.querySelectorAll("#ask-list button")].find((x) => x.textContent === "Send").click()`, nil)
	b.Wait("the form", `return document.querySelector('[aria-label="asker asks you"]') ? "ok" : ""`, 30*time.Second)
	b.Eval(`[...document.querySelectorAll("#ask-list button")].find((x) => x.textContent === "Submit").click()`, nil)
	b.Wait("the refusal", `return document.querySelector('#ask-list [role="alert"].error')?.textContent || ""`, 10*time.Second)
	b.Screenshot(filepath.Join(dir, "web-elicitation-dark.png"))
	b.Eval(`[...document.querySelectorAll("#ask-list button")].find((x) => x.textContent === "Decline").click()`, nil)
	b.Wait("the result", resultText, 30*time.Second)
	b.Click(`nav button[data-tab="notes"]`)
	b.Wait("the notifications", `return document.getElementById("note-list").childElementCount >= 2 ? "ok" : ""`, 20*time.Second)
	b.Screenshot(filepath.Join(dir, "web-notifications-dark.png"))
}

// startShowcase serves a page over the appserver ("apps"), the scripted
// server ("script") and the asker, a real process ("asker").
func startShowcase(t *testing.T) *Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(askerEnv, "1")
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	sc := &scripted{cancelled: make(chan struct{})}
	app := appserver.New()
	inbox, trace := &Inbox{}, &Trace{}
	conf := &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "apps", Type: "memory"}, {Name: "script", Type: "memory"}, {Name: "asker", Command: exe}}}
	reg, err := toolreg.New(context.Background(), conf, &toolreg.Options{
		Session:    &mcpclient.Options{UI: true},
		WrapStream: trace.Wrap,
		Dial: func(ctx context.Context, c *toolreg.ServerConfig, o *mcpclient.Options) (*mcpclient.Session, error) {
			own := *o
			inbox.Hook(c.Name, &own, true, true)
			if c.Command != "" {
				return (&remote.Dialer{}).Dial(ctx, c, &own)
			}
			client, server := transport.Pipe()
			var conn *jsonrpc.Conn
			if c.Name == "script" {
				conn = sc.serve(server)
			} else {
				conn = app.Serve(server)
			}
			s, err := mcpclient.Connect(ctx, client, &own)
			if err != nil {
				conn.Close()
				return nil, err
			}
			go func() { <-s.Done(); conn.Close() }()
			return s, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	srv, err := Start(&Options{Registry: reg, Trace: trace, Inbox: inbox})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}
