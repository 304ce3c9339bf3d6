package webui

import (
	"strconv"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
)

// strayText finds a line of the page that reads null or undefined: what
// the DOM prints for a part that was left out (replaceChildren(null)) or a
// member a server did not send. It returns "" when there is none.
const strayText = `return document.body.innerText.split("\n").map((l) => l.trim()).
	find((l) => /^(null|undefined)$/.test(l) || /\bundefined\b/.test(l)) || ""`

// TestBrowserNoLineReadsNull opens every tool's form and every tab: no
// line of the page reads null or undefined.
func TestBrowserNoLineReadsNull(t *testing.T) {
	srv, _ := startPage(t, false)
	b := browsertest.Start(t)
	b.Go(srv.URL())
	b.Wait("the tool list", `return document.querySelectorAll("#tool-list button").length >= 4 ? "ok" : ""`, 30*time.Second)
	var n int
	b.Eval(`return document.querySelectorAll("#tool-list button").length`, &n)
	for i := 0; i < n; i++ {
		var name string
		b.Eval(`const e = document.querySelectorAll("#tool-list button")[arguments[0]]; e.click(); return e.querySelector(".name").textContent`, &name, i)
		b.Wait(name+"'s form", `return document.querySelector("#detail h2")?.textContent === `+strconv.Quote(name)+` ? "ok" : ""`, 10*time.Second)
		var stray string
		b.Eval(strayText, &stray)
		if stray != "" {
			t.Errorf("with %s's form open, a line reads %q", name, stray)
		}
	}
	for _, tab := range []string{"resources", "prompts", "skills", "wire", "tools"} {
		b.Click(`nav button[data-tab="` + tab + `"]`)
		var stray string
		b.Eval(strayText, &stray)
		if stray != "" {
			t.Errorf("on the %s tab, a line reads %q", tab, stray)
		}
	}
}
