package webui

import (
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
)

// openTool clicks the tool named name in the list and waits for its form.
func openTool(t *testing.T, b *browsertest.Browser, name string) {
	t.Helper()
	b.Wait(name+" in the list", `return [...document.querySelectorAll("#tool-list .name")].some((e) => e.textContent === "`+name+`") ? "ok" : ""`, 30*time.Second)
	b.Eval(`for (const e of document.querySelectorAll("#tool-list button")) { if (e.querySelector(".name").textContent === arguments[0]) { e.click(); } }`, nil, name)
	b.Wait(name+"'s form", `return document.querySelector("#detail h2")?.textContent === "`+name+`" ? "ok" : ""`, 10*time.Second)
}

// resultText is the script that reads a call's text result, "" until
// one shows.
const resultText = `return document.querySelector("#result .text-content")?.textContent || ""`

// labelled is the script that finds the control whose accessible label
// is arguments[0] (its <label>, aria-label or aria-labelledby text).
const labelled = `const want = arguments[0];
	const byLabel = [...document.querySelectorAll("label[for]")].find((l) => l.textContent.trim() === want);
	const el = byLabel ? document.getElementById(byLabel.htmlFor) : document.querySelector("[aria-label=\"" + want + "\"]");`

// A search narrows the tool list across servers, by name and description.
func TestBrowserSearchTools(t *testing.T) {
	srv, _ := startScripted(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	b.Wait("the tool list", `return document.querySelectorAll("#tool-list li").length >= 8 ? "ok" : ""`, 30*time.Second)
	visible := `return [...document.querySelectorAll("#tool-list li")].filter((li) => !li.hidden).map((li) => li.querySelector(".name").textContent).join(",")`
	b.Type(`[aria-label="Search tools"]`, "orchard")
	if got := b.Wait("the search", visible, 10*time.Second); got != "mcp__script__find_apples" {
		t.Errorf("searching orchard (a description's word) shows %q", got)
	}
	b.Eval(`const s = document.getElementById("tool-search"); s.value = ""; s.dispatchEvent(new Event("input"));`, nil)
	b.Type(`[aria-label="Search tools"]`, "TELLS")
	if got := b.Wait("the search", visible, 10*time.Second); got != "mcp__apps__clock" {
		t.Errorf("searching TELLS shows %q", got)
	}
	if c := b.Text("#tool-count"); !strings.HasPrefix(c, "1 of ") {
		t.Errorf("the count reads %q", c)
	}
}

// A call with a required field empty never reaches the server, and the
// page says why; filled in, it does.
func TestBrowserRequiredFieldsBeforeTheCall(t *testing.T) {
	srv, sc := startScripted(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__script__greet")
	var button string
	b.Eval(`return document.getElementById("call-btn").textContent`, &button)
	if button != "Call mcp__script__greet" {
		t.Errorf("the call button is named %q", button)
	}
	b.Click("#call-btn")
	why := b.Wait("the reason", `return document.getElementById("form-problems").textContent`, 10*time.Second)
	if !strings.Contains(why, "name is required") {
		t.Errorf("the page says %q", why)
	}
	b.Eval(labelled+` el.value = "9"; return null`, nil, "times")
	b.Type(`#detail input[aria-required="true"]`, "Ada")
	b.Click("#call-btn")
	why = b.Wait("the reason", `const t = document.getElementById("form-problems").textContent; return t.includes("times") ? t : ""`, 10*time.Second)
	if !strings.Contains(why, "at most 3") {
		t.Errorf("the page says %q", why)
	}
	b.Eval(labelled+` el.value = "2"; return null`, nil, "times")
	b.Click("#call-btn")
	if got := b.Wait("the result", resultText, 20*time.Second); got != "Hello, Ada!" {
		t.Errorf("result %q", got)
	}
	if n := sc.greets.Load(); n != 1 {
		t.Errorf("the server got %d greet calls, want 1: the refused ones reached it", n)
	}
	var stray string
	b.Eval(strayText, &stray)
	if stray != "" {
		t.Errorf("a line reads %q", stray)
	}
}

// A link's arguments fill the form, and the call waits for the person:
// declined, nothing reaches the server, and the form keeps the arguments.
func TestBrowserLinkFillsTheForm(t *testing.T) {
	srv, sc := startScripted(t)
	b := browsertest.Start(t)
	b.Go(srv.URL() + `?call=mcp__script__greet&args=%7B%22name%22%3A%22Ada%22%2C%22mood%22%3A%22cool%22%7D`)
	b.Wait("the consent dialog", `return document.getElementById("consent").open ? "ok" : ""`, 30*time.Second)
	b.Click("#consent-no")
	b.Wait("the refusal", `return document.getElementById("status").textContent.includes("declined") ? "ok" : ""`, 10*time.Second)
	var name, mood string
	b.Eval(labelled+` return el.value`, &name, "name — Your name")
	b.Eval(labelled+` return el.options[el.selectedIndex].textContent`, &mood, "mood")
	if name != "Ada" || mood != "Coolly" {
		t.Errorf("the form holds name %q, mood %q; want the link's Ada and Coolly", name, mood)
	}
	if n := sc.greets.Load(); n != 0 {
		t.Errorf("a declined link's call reached the server (%d calls)", n)
	}
	b.Click("#call-btn")
	if got := b.Wait("the result", resultText, 20*time.Second); got != "Hello, Ada!" {
		t.Errorf("result %q", got)
	}
}

// Progress shows as it comes, and Cancel reaches the server as
// notifications/cancelled.
func TestBrowserProgressAndCancel(t *testing.T) {
	srv, sc := startScripted(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__script__slow")
	b.Click("#call-btn")
	got := b.Wait("the progress", `const p = document.querySelector('[role="progressbar"]');
		return p ? p.getAttribute("aria-valuenow") + "/" + p.getAttribute("aria-valuemax") + " " + document.getElementById("call-progress").textContent : ""`, 20*time.Second)
	if got != "1/4 1 of 4 — warming up" {
		t.Errorf("progress reads %q", got)
	}
	var cancel string
	b.Eval(`const c = document.getElementById("call-cancel"); return c.hidden ? "" : c.textContent`, &cancel)
	if cancel != "Cancel" {
		t.Fatalf("the Cancel button reads %q while the call runs", cancel)
	}
	b.Click("#call-cancel")
	select {
	case <-sc.cancelled:
	case <-time.After(20 * time.Second):
		t.Fatal("the server got no notifications/cancelled")
	}
	b.Wait("the page's cancelled", `return document.getElementById("status").textContent === "cancelled" ? "ok" : ""`, 20*time.Second)
	var hidden bool
	b.Eval(`return document.getElementById("call-cancel").hidden`, &hidden)
	if !hidden {
		t.Error("Cancel still shows after the call ended")
	}
}

// A long text and an image's base64 are collapsed, as is the call's wire
// view: each opens on a click.
func TestBrowserLargeValuesCollapsed(t *testing.T) {
	srv, _ := startScripted(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__script__big")
	b.Click("#call-btn")
	b.Wait("the result", `return document.querySelector("#result img") ? "ok" : ""`, 20*time.Second)
	var got struct {
		Base64, WireOpen bool
		Summaries        string
		Shown            int
	}
	b.Eval(`const r = document.getElementById("result");
		return {Base64: r.textContent.includes(arguments[0]), WireOpen: !!r.querySelector("details.wire[open]"),
			Summaries: [...r.querySelectorAll("summary")].map((s) => s.textContent).join(" | "), Shown: r.innerText.length}`, &got, bigImage[:40])
	if got.Base64 || got.WireOpen || got.Shown > 4000 {
		t.Errorf("the result shows base64 %v, the wire open %v, %d characters", got.Base64, got.WireOpen, got.Shown)
	}
	for _, want := range []string{"Show all 5,000 characters", "image/png, 19.5 KiB of base64", "On the wire ("} {
		if !strings.Contains(got.Summaries, want) {
			t.Errorf("the collapsed parts read %q, want %q", got.Summaries, want)
		}
	}
	b.Eval(`[...document.querySelectorAll("#result summary")].find((s) => s.textContent.includes("base64")).click()`, nil)
	b.Wait("the base64, opened", `return document.querySelector("#result .blob")?.textContent === "`+bigImage+`" ? "ok" : ""`, 10*time.Second)
}

// A resource template's variables are filled in a form, and the URI they
// make is read.
func TestBrowserResourceTemplate(t *testing.T) {
	srv, _ := startScripted(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	b.Click(`nav button[data-tab="resources"]`)
	b.Wait("the template", `return [...document.querySelectorAll("#template-list button")].find((x) => x.textContent.includes("notes://")) ? "ok" : ""`, 30*time.Second)
	b.Eval(`[...document.querySelectorAll("#template-list button")].find((x) => x.textContent.includes("notes://")).click()`, nil)
	b.Wait("its form", `return document.getElementById("template-uri") ? "ok" : ""`, 10*time.Second)
	b.Eval(`[...document.querySelectorAll("#detail button")].find((x) => x.textContent === "Read").click()`, nil)
	if why := b.Wait("the refusal", `return document.querySelector('#detail [role="alert"].error')?.textContent || ""`, 10*time.Second); !strings.Contains(why, "owner is required") {
		t.Errorf("with nothing filled in, the page says %q", why)
	}
	b.Type(`#detail input[aria-required="true"]`, "Ada L")
	b.Eval(labelled+` el.value = "a/b"; el.dispatchEvent(new Event("input", {bubbles: true})); return null`, nil, "name")
	b.Eval(`[...document.querySelectorAll("#detail button")].find((x) => x.textContent === "Read").click()`, nil)
	got := b.Wait("the contents", `return document.querySelector("#template-result pre")?.textContent || ""`, 20*time.Second)
	if got != "read notes://Ada%20L/a%2Fb" {
		t.Errorf("read %q", got)
	}
}

// A tool whose schema has more properties than a form lays out (300
// here, each with a 3,000-character description) gets no form: its
// arguments are entered as JSON, and the call still goes through.
func TestBrowserWideSchemaIsEnteredAsJSON(t *testing.T) {
	srv, _ := startScripted(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__script__wide")
	var got struct {
		Fields   int    `json:"fields"`
		Note     string `json:"note"`
		UseJSON  bool   `json:"useJSON"`
		Disabled bool   `json:"disabled"`
		Shown    bool   `json:"shown"`
	}
	b.Eval(`const u = document.getElementById("use-json");
		return {fields: document.querySelectorAll("#detail .field").length, note: document.querySelector("#detail .too-many")?.textContent || "",
			useJSON: u.checked, disabled: u.disabled, shown: !document.getElementById("args-json").hidden}`, &got)
	if got.Fields != 0 || !strings.Contains(got.Note, "300 arguments") || !got.UseJSON || !got.Disabled || !got.Shown {
		t.Errorf("the page shows %+v, want no field, the count, and the JSON box chosen for good", got)
	}
	b.Eval(`document.getElementById("args-json").value = '{"p1": "a"}'; return null`, nil)
	b.Click("#call-btn")
	if r := b.Wait("the result", resultText, 20*time.Second); r != "ok" {
		t.Errorf("result %q", r)
	}
}

// A server's pattern never runs in the page: ^(a|a)*$ against its own
// default of forty a's and a ! takes a backtracking engine about 2^40
// steps, and the page froze as the call was checked. The server checks
// patterns; the call goes through.
func TestBrowserPatternCannotFreezeThePage(t *testing.T) {
	srv, _ := startScripted(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__script__backtrack")
	b.Click("#call-btn")
	if r := b.Wait("the result", resultText, 20*time.Second); r != "ok" {
		t.Errorf("result %q", r)
	}
}
