package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
)

// TestIntegrationAppsWeb runs mcpc web over the MCP Apps example server
// and drives headless Chromium: opening ?call= shows the app with the
// server's time in it, the app's own button calls the tool again through
// the page, the app's frame is not on the page's origin, and a request
// without the token or with a foreign Host is refused.
func TestIntegrationAppsWeb(t *testing.T) {
	sc := appsServer(t)
	b := browsertest.Start(t)
	bin := buildMCPC(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--stdio", "node "+sc.Args[0]+" --stdio", "--name", "basic", "--yes", "web")
	cmd.Env = os.Environ()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL: %v", err)
	}
	page := strings.TrimSpace(line)
	u, err := url.Parse(page)
	if err != nil || u.Hostname() != "127.0.0.1" {
		t.Fatalf("first line %q is not a loopback URL", line)
	}

	for _, tc := range []struct {
		name, url, host string
		want            int
	}{
		{"the page", page, "", 200},
		{"no token", "http://" + u.Host + "/", "", 404},
		{"foreign Host", page, "rebind.example:" + u.Port(), 421},
	} {
		req, _ := http.NewRequest("GET", tc.url, nil)
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}

	b.Go(page + "?call=mcp__basic__get-time")
	b.Wait("the result", `return document.querySelector("#result .text-content")?.textContent || ""`, 60*time.Second)
	if p := os.Getenv("PLAINMCP_SCREENSHOT"); p != "" {
		defer b.Screenshot(p)
	}
	b.Frame("#app-box iframe")
	var origin string
	b.Eval(`return location.origin`, &origin)
	if origin == "http://"+u.Host || !strings.HasPrefix(origin, "http://127.0.0.1:") {
		t.Errorf("the app's frame is on %q, the page on http://%s", origin, u.Host)
	}
	b.Frame("iframe")
	first := b.Wait("the server's time in the app", `const t = document.getElementById("server-time").textContent; return t === "Loading..." ? "" : t`, 60*time.Second)
	if _, err := time.Parse(time.RFC3339, first); err != nil {
		t.Fatalf("the app shows %q, not the server's time", first)
	}
	time.Sleep(5 * time.Millisecond) // the next time differs by at least a millisecond
	b.Click("#get-time-btn")
	firstJS, _ := json.Marshal(first)
	again := b.Wait("the time from the app's own call", `const t = document.getElementById("server-time").textContent; return t !== `+string(firstJS)+` ? t : ""`, 60*time.Second)
	if _, err := time.Parse(time.RFC3339, again); err != nil {
		t.Errorf("after the app's call it shows %q", again)
	}
	b.Top()
	if n := b.Text("#app-log"); !strings.Contains(n, "tools/call") {
		t.Errorf("the app's tools/call is not among the app messages: %q", n)
	}
}
