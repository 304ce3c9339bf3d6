package webui

import (
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
)

// The person answers a server's sampling request and its form on the
// page; the server's log message and its stderr lines show in the
// Notifications tab, and the log level is set from there.
func TestBrowserSamplingElicitationAndNotifications(t *testing.T) {
	srv := startAsker(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__asker__ask")
	b.Click("#call-btn")
	b.Wait("the sampling request", `return document.querySelector('#asks:not([hidden]) [aria-label="asker asks for a model\'s reply"]') ? "ok" : ""`, 30*time.Second)
	if got := b.Text("#ask-list .msg"); got != "user: Name a colour" {
		t.Errorf("the request shows %q", got)
	}
	b.Eval(labelled+` el.value = "Teal"; return null`, nil, "Reply")
	b.Eval(`[...document.querySelectorAll("#ask-list button")].find((x) => x.textContent === "Send").click()`, nil)
	b.Wait("the form", `return document.querySelector('[aria-label="asker asks you"]') ? "ok" : ""`, 30*time.Second)
	submit := `[...document.querySelectorAll("#ask-list button")].find((x) => x.textContent === "Submit").click()`
	b.Eval(submit, nil)
	why := b.Wait("the refusal", `return document.querySelector('#ask-list [role="alert"].error')?.textContent || ""`, 10*time.Second)
	if !strings.Contains(why, "Your name is required") && !strings.Contains(why, "name is required") {
		t.Errorf("an empty required field: the page says %q", why)
	}
	b.Eval(labelled+` el.value = "Ada"; return null`, nil, "Your name")
	b.Eval(labelled+` el.value = [...el.options].find((o) => o.textContent === "High").value; return null`, nil, "Level")
	b.Eval(submit, nil)
	got := b.Wait("the result", resultText, 30*time.Second)
	if got != `model: Teal <nil>; form: accept {"level":"hi","name":"Ada"} <nil>` {
		t.Errorf("the server was answered %q", got)
	}
	if asks := b.Text("#ask-list"); asks != "" {
		t.Errorf("answered requests still show: %q", asks)
	}
	b.Click(`nav button[data-tab="notes"]`)
	notes := b.Wait("the notifications", `const t = document.getElementById("note-list").textContent;
		return t.includes("about to ask") && t.includes("stderr: asker: started") ? t : ""`, 20*time.Second)
	if !strings.Contains(notes, "warning: asker: about to ask the person") {
		t.Errorf("notifications: %q", notes)
	}
	b.Eval(`document.getElementById("log-level").value = "debug"; document.querySelector("#log-form button").click()`, nil)
	b.Wait("the level's stderr line", `return document.getElementById("note-list").textContent.includes("log level is now debug") ? "ok" : ""`, 20*time.Second)
	var stray string
	b.Eval(strayText, &stray)
	if stray != "" {
		t.Errorf("a line reads %q", stray)
	}
}

// A page a server asks the person to open shows its URL and opens only
// on a click; declined, the server hears so.
func TestBrowserURLElicitation(t *testing.T) {
	srv := startAsker(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__asker__visit")
	b.Click("#call-btn")
	b.Wait("the page to open", `return document.querySelector('[aria-label="asker asks you to open a page"]') ? "ok" : ""`, 30*time.Second)
	var link struct {
		Href, Text, Rel, URL string
	}
	b.Eval(`const a = document.querySelector("#ask-list a"); return {Href: a.href, Text: a.textContent, Rel: a.rel, URL: document.querySelector("#ask-list .url").textContent}`, &link)
	if link.Href != "https://example.com/login" || link.Text != "Open example.com" || !strings.Contains(link.Rel, "noopener") || link.URL != "https://example.com/login" {
		t.Errorf("the link: %+v", link)
	}
	b.Eval(`[...document.querySelectorAll("#ask-list button")].find((x) => x.textContent === "Decline").click()`, nil)
	if got := b.Wait("the result", resultText, 30*time.Second); got != "visit: decline <nil>" {
		t.Errorf("the server was answered %q", got)
	}
}

// Roots are edited on the page: a server told of the change asks again
// and gets the page's list; a root that is not a file:// URI is refused.
func TestBrowserRoots(t *testing.T) {
	srv := startAsker(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__asker__roots")
	b.Click("#roots summary")
	b.Type("#root-uri", "https://example.com/")
	b.Click("#root-form button[type=submit]")
	if got := b.Wait("the refusal", `const t = document.getElementById("root-result").textContent; return t.startsWith("Not") ? t : ""`, 10*time.Second); !strings.Contains(got, "file://") {
		t.Errorf("a web URL as a root: %q", got)
	}
	b.Eval(`document.getElementById("root-uri").value = ""`, nil)
	b.Type("#root-uri", "file:///tmp/project")
	b.Type("#root-name", "project")
	b.Click("#root-form button[type=submit]")
	if got := b.Wait("the change", `const t = document.getElementById("root-result").textContent; return t.startsWith("Roots") ? t : ""`, 10*time.Second); got != "Roots changed; told asker." {
		t.Errorf("the page says %q", got)
	}
	b.Click("#call-btn")
	if got := b.Wait("the result", resultText, 30*time.Second); got != "roots: [{file:///tmp/project}] <nil>" {
		t.Errorf("the server got %q", got)
	}
	b.Click(`nav button[data-tab="notes"]`)
	b.Wait("the server's word", `return document.getElementById("note-list").textContent.includes("asker: the roots changed") ? "ok" : ""`, 20*time.Second)
}
