package webui

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
)

// TestBrowserApp opens ?call= for the clock in headless Chromium and
// plays the app's side: the app shows the time the tool returned, its
// button calls the tool again through the page, an app-only tool asks the
// person first, a model-only tool is refused, and the app runs on neither
// the page's origin nor the sandbox proxy's.
func TestBrowserApp(t *testing.T) {
	srv, _ := startPage(t, false)
	b := browsertest.Start(t)
	b.Go(srv.URL() + "?call=mcp__apps__clock&args=" + `%7B%22zone%22%3A%22UTC%22%7D`)
	b.Wait("the result", resultText, 30*time.Second)
	b.Frame("#app-box iframe")
	var proxyOrigin string
	b.Eval(`return location.origin`, &proxyOrigin)
	if proxyOrigin != srv.SandboxOrigin() || strings.Contains(srv.URL(), proxyOrigin+"/") {
		t.Errorf("proxy origin %q, want the sandbox origin %q, not the page's", proxyOrigin, srv.SandboxOrigin())
	}
	b.Frame("iframe")
	first := b.Wait("the time in the app", `const t = document.getElementById("time").textContent; return t === "waiting" ? "" : t`, 30*time.Second)
	if first != base.Add(time.Second).Format(time.RFC3339Nano) {
		t.Errorf("the app shows %q, want the first call's time", first)
	}
	if in := b.Text("#input"); in != `{"zone":"UTC"}` {
		t.Errorf("the app got tool input %q", in)
	}
	if e := b.Text("#early"); e != "0" {
		t.Errorf("the page sent the app %s messages before it said it was initialized", e)
	}
	if log := b.Text("#log"); !strings.HasPrefix(log, "ui/notifications/tool-input\nui/notifications/tool-result") {
		t.Errorf("the app received, in order:\n%s\nwant the tool input, then the result", log)
	}
	if o := b.Text("#origin"); o != "null" {
		t.Errorf("the app's origin is %q, want an opaque one", o)
	}
	b.Click("#again")
	again := b.Wait("the app's own call", `return document.getElementById("calls").textContent === "1" ? document.getElementById("time").textContent : ""`, 30*time.Second)
	if again != base.Add(2*time.Second).Format(time.RFC3339Nano) {
		t.Errorf("after the app's call the app shows %q", again)
	}
	b.Click("#note")
	if e := b.Wait("the refusal", `return document.getElementById("error").textContent`, 30*time.Second); !strings.Contains(e, "not available") {
		t.Errorf("calling a model-only tool: %q", e)
	}
	b.Click("#tick")
	b.Top()
	b.Wait("the consent dialog", `return document.getElementById("consent").open ? document.getElementById("consent-text").textContent : ""`, 30*time.Second)
	b.Click("#consent-always")
	b.Frame("#app-box iframe")
	b.Frame("iframe")
	b.Wait("the app-only call", `return document.getElementById("calls").textContent === "2" ? "ok" : ""`, 30*time.Second)
	// Allowed for this app until the page closes: the next tick asks no more.
	b.Click("#tick")
	b.Wait("the second app-only call", `return document.getElementById("calls").textContent === "3" ? "ok" : ""`, 30*time.Second)
	b.Top()
	// A new call tears the app down first, and waits for its answer.
	b.Click("#call-btn")
	b.Wait("the teardown", `const items = [...document.querySelectorAll("#app-log li")].map((li) => li.textContent);
		return items.some((t) => t.startsWith("host → app") && t.includes("ui/resource-teardown")) &&
			items.some((t) => t.startsWith("app → host") && t.includes('"id": "host-1"')) ? "ok" : ""`, 30*time.Second)
	if shot := os.Getenv("PLAINMCP_SCREENSHOT"); shot != "" {
		b.Screenshot(shot)
		t.Logf("screenshot: %s", shot)
	}
}
