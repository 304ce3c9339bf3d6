package webui

import (
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
)

// namedParts is every control and region a person or a screen reader
// reaches on the page.
const namedParts = `button, input, select, textarea, a[href], section, nav, [role="region"], [role="progressbar"], [role="group"], dialog, form, ol[aria-label], ul[aria-label]`

// unnamed lists the parts of the page in the current state that Chromium
// computes no accessible name for (WebDriver's computedlabel), each with
// its id or text.
func unnamed(t *testing.T, b *browsertest.Browser) []string {
	t.Helper()
	var els []map[string]string
	b.Cmd("POST", "/elements", map[string]string{"using": "css selector", "value": namedParts}, &els)
	var out []string
	for _, el := range els {
		for _, id := range el {
			var label, desc string
			b.Cmd("GET", "/element/"+id+"/computedlabel", nil, &label)
			if strings.TrimSpace(label) != "" {
				continue
			}
			b.Eval(`const e = arguments[0]; return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.checkVisibility() ? "" : " (hidden)")`, &desc, el)
			if !strings.HasSuffix(desc, "(hidden)") {
				out = append(out, desc)
			}
		}
	}
	return out
}

// Every control and region of the page has an accessible name, in each
// state a person reaches: a tool's form, a call in progress, a server's
// form to fill in, a template's form.
func TestBrowserEverythingHasAName(t *testing.T) {
	srv := startShowcase(t)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	openTool(t, b, "mcp__script__greet")
	b.Click("#connect summary")
	b.Click("#roots summary")
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("with a tool's form open, unnamed: %v", bad)
	}
	openTool(t, b, "mcp__script__slow")
	b.Click("#call-btn")
	b.Wait("the progress", `return document.querySelector('[role="progressbar"]') ? "ok" : ""`, 20*time.Second)
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("during a call, unnamed: %v", bad)
	}
	b.Click("#call-cancel")
	openTool(t, b, "mcp__asker__ask")
	b.Click("#call-btn")
	b.Wait("the sampling request", `return document.querySelector("#ask-list textarea") ? "ok" : ""`, 30*time.Second)
	b.Eval(`[...document.querySelectorAll("#ask-list button")].find((x) => x.textContent === "Send").click()`, nil)
	b.Wait("the form", `return document.querySelector('[aria-label="asker asks you"]') ? "ok" : ""`, 30*time.Second)
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("with a server's form, unnamed: %v", bad)
	}
	b.Click(`nav button[data-tab="prompts"]`)
	b.Wait("the prompt", `return document.querySelector("#prompt-list button") ? "ok" : ""`, 20*time.Second)
	b.Click("#prompt-list button")
	b.Wait("its form", `return document.querySelector('#detail form[aria-label="Arguments of mcp__script__haiku"]') ? "ok" : ""`, 10*time.Second)
	if bad := unnamed(t, b); len(bad) > 0 {
		t.Errorf("with a prompt's form, unnamed: %v", bad)
	}
	b.Click("#detail button[type=submit]")
	if why := b.Wait("the refusal", `return document.querySelector('#detail [role="alert"].error')?.textContent || ""`, 10*time.Second); !strings.Contains(why, "topic is required") {
		t.Errorf("an empty required argument: %q", why)
	}
	b.Type(`#detail input[aria-required="true"]`, "pipes")
	b.Click("#detail button[type=submit]")
	if got := b.Wait("the messages", `return document.querySelector('#detail [aria-label="Messages"] pre')?.textContent || ""`, 10*time.Second); got != "user: Write a haiku about pipes" {
		t.Errorf("the prompt rendered %q", got)
	}
	for _, tab := range []string{"resources", "prompts", "skills", "notes", "history", "wire"} {
		b.Click(`nav button[data-tab="` + tab + `"]`)
		if bad := unnamed(t, b); len(bad) > 0 {
			t.Errorf("on the %s tab, unnamed: %v", tab, bad)
		}
	}
}
