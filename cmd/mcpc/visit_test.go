package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// browser stands in for the person's browser: it records every URL mcpc
// opens and loads it now (the completion then reaches mcpc before its
// answer), after a pause (after the answer), or never.
type browser struct {
	mu     sync.Mutex
	opened []string
	wg     sync.WaitGroup
}

const (
	loadNow   = 0
	loadLater = 100 * time.Millisecond
	loadNever = -1
)

func useBrowser(t *testing.T, load time.Duration) *browser {
	b := &browser{}
	old := openBrowser
	t.Cleanup(func() { b.wg.Wait(); openBrowser = old })
	openBrowser = func(u string) error {
		b.mu.Lock()
		b.opened = append(b.opened, u)
		b.mu.Unlock()
		get := func() {
			// A connection of its own each time: a pooled one may lead
			// to an earlier demo server that had the same port.
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			resp, err := client.Get(u)
			if err != nil {
				t.Errorf("loading the page: %v", err)
				return
			}
			// The whole page arrives, however soon the server's call ends.
			if _, err := io.Copy(io.Discard, resp.Body); err != nil {
				t.Errorf("reading the page: %v", err)
			}
			resp.Body.Close()
		}
		switch {
		case load == loadNow:
			get()
		case load > 0:
			b.wg.Add(1)
			// The subject: a person whose browser loads the page late,
			// in real time, as the server's own wait runs.
			go func() { defer b.wg.Done(); time.Sleep(load); get() }()
		}
		return nil
	}
	return b
}

func (b *browser) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.opened)
}

// runVisit runs mcpc against the demo servers "visit" (handshake era) and
// "modern" (stateless), as a person at a terminal (interactive) or not.
func runVisit(t *testing.T, interactive bool, stdin string, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	visit, modern := demoEntry(t, "-pages"), demoEntry(t, "-pages", "-stateless")
	// The start has a bound of its own, whatever --timeout says.
	visit["timeout"], modern["timeout"] = 20000, 20000
	writeConfig(t, dir, ".mcp.json", map[string]any{"visit": visit, "modern": modern})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, interactive: interactive}
	code := c.run(ctx, args)
	return result{code, stdout.String(), stderr.String()}
}

// A server's URL-mode request, in either era: the person is shown the
// server, the host and the URL, and asked; yes opens the page and
// accepts, no declines, c cancels, and no answer at all cancels. In the
// handshake era the server's completion is reported, whether it comes
// before mcpc's answer or after it.
func TestVisitAskedAtTheTerminal(t *testing.T) {
	for _, tc := range []struct {
		name, server, stdin string
		load                time.Duration
		out                 string
		opened              int
		stderr              []string
	}{
		{"yes, loaded at once", "visit", "y\n", loadNow, "the page of visit-1 was visited", 1,
			[]string{`Server "visit" asks you to open a page on 127.0.0.1:`, "Open it? [y]es", `Server "visit" says the page on 127.0.0.1:`}},
		{"yes, loaded after the answer", "visit", "yes\n", loadLater, "the page of visit-1 was visited", 1,
			[]string{`Server "visit" says the page on 127.0.0.1:`}},
		{"no", "visit", "n\n", loadNow, "action: decline", 0, nil},
		{"cancel", "visit", "c\n", loadNow, "action: cancel", 0, nil},
		{"no answer", "visit", "", loadNow, "action: cancel", 0, nil},
		{"stateless yes", "modern", "y\n", loadLater, "the page of visit-1 was visited", 1,
			[]string{`Server "modern" asks you to open a page on 127.0.0.1:`}},
		{"stateless no", "modern", "n\n", loadNow, "action: decline", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := useBrowser(t, tc.load)
			r := runVisit(t, true, tc.stdin, "call", "mcp__"+tc.server+"__visit", `{"message": "Sign in, please", "waitMs": 10000}`)
			r.want(t, exitOK)
			if !strings.Contains(r.stdout, tc.out) {
				t.Errorf("stdout %q, want %q", r.stdout, tc.out)
			}
			if b.count() != tc.opened {
				t.Errorf("opened %d pages, want %d", b.count(), tc.opened)
			}
			for _, s := range append(tc.stderr, `"Sign in, please"`) {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr %q lacks %q", r.stderr, s)
				}
			}
		})
	}
}

// Without a terminal a page is declined, saying why, unless --open-urls;
// with no elicitation flag at all, none is offered.
func TestVisitWithoutATerminal(t *testing.T) {
	b := useBrowser(t, loadNow)
	r := runVisit(t, false, "", "call", "mcp__visit__visit", `{}`)
	r.want(t, exitToolError, "needs the client's elicitation.url capability")
	r = runVisit(t, false, "", "--elicitation", "defaults", "call", "mcp__visit__visit", `{}`)
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "action: decline") || !strings.Contains(r.stderr, "no terminal to ask at (--open-urls opens such pages)") || b.count() != 0 {
		t.Errorf("stdout %q stderr %q opened %d", r.stdout, r.stderr, b.count())
	}
	r = runVisit(t, false, "", "--open-urls", "call", "mcp__visit__visit", `{}`)
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "the page of visit-1 was visited") || b.count() != 1 {
		t.Errorf("--open-urls: stdout %q stderr %q opened %d", r.stdout, r.stderr, b.count())
	}
	// --elicitation decline declines pages too, and does not offer them.
	r = runVisit(t, false, "", "--open-urls", "--elicitation", "decline", "call", "mcp__visit__visit", `{}`)
	r.want(t, exitToolError, "needs the client's elicitation.url capability")
	if b.count() != 1 {
		t.Errorf("--elicitation decline: opened %d", b.count())
	}
}

// A page the server never says is done: the call's own bound ends it, and
// mcpc says the server never confirmed.
func TestVisitNeverCompleted(t *testing.T) {
	useBrowser(t, loadNever)
	r := runVisit(t, true, "y\n", "call", "mcp__visit__visit", `{"waitMs": 200}`)
	r.want(t, exitToolError)
	if !strings.Contains(r.stdout+r.stderr, "was not loaded within") || !strings.Contains(r.stderr, `Server "visit" never said the page on 127.0.0.1:`) {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
}

// -32042: the pages the error lists are shown and opened on yes; once the
// server says they are done the call is made again, once, and succeeds.
// Without the completion, the wait ends at --timeout with a clear error.
func TestVisitRequiredErrorRetriesOnce(t *testing.T) {
	b := useBrowser(t, loadLater)
	r := runVisit(t, true, "y\n", "call", "mcp__visit__visit", `{"required": true}`)
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "the page of visit-1 was visited") || b.count() != 1 {
		t.Errorf("stdout %q stderr %q opened %d", r.stdout, r.stderr, b.count())
	}
	if !strings.Contains(r.stderr, `Waiting for server "visit" to say the visit is done`) {
		t.Errorf("stderr %q", r.stderr)
	}
	r = runVisit(t, true, "n\n", "call", "mcp__visit__visit", `{"required": true}`)
	if r.code != exitRefused || !strings.Contains(r.stderr, "mcpc: the call needs a page visited first, and it was not (decline)") {
		t.Errorf("declined: exit %d, stderr %q", r.code, r.stderr)
	}

	// No completion: after --timeout the call is made again anyway, once;
	// the server, whose page was never loaded, asks again, and mcpc stops.
	useBrowser(t, loadNever)
	r = runVisit(t, true, "y\n", "--timeout", "300ms", "call", "mcp__visit__visit", `{"required": true}`)
	r.want(t, exitFailure, `server "visit" did not say the page on 127.0.0.1:`, "making the call again",
		"the server still wants a page visited, after the visit and a second call")
}

// A hostile page never reaches the opener: the refusal says why without
// quoting the URL's insides, and the server's message is printed inert.
func TestVisitRefusesHostileURLs(t *testing.T) {
	b := useBrowser(t, loadNever)
	for _, u := range []string{
		"javascript:alert(document.cookie)",
		"file:///etc/passwd",
		"http://evil.example/login",
		"https://bank.example@evil.example/",
		"data:text/html,<script>alert(1)</script>",
		"https://evil.example/\u202egnp.exe",
		"https://xn--80ak6aa92e.example/\u0430",
		"https://evil.example/a b",
		"https://long.example/" + strings.Repeat("a", maxVisitURL),
		"",
	} {
		var out bytes.Buffer
		v := &visits{out: &out, open: true}
		got := v.offer("srv", &mcpclient.ElicitParams{Mode: "url", URL: u, ElicitationID: "e", Message: "hi\x1b[2J\u202eevil\r"})
		if got != "decline" {
			t.Errorf("%q: %s, want decline", u, got)
		}
		s := out.String()
		if !strings.Contains(s, "declined: ") || strings.ContainsAny(s, "\x1b\u202e\r") || strings.Contains(s, "alert") {
			t.Errorf("%q: printed %q", u, s)
		}
		if len(v.pending) != 0 {
			t.Errorf("%q: waits for a page it declined", u)
		}
	}
	if b.count() != 0 {
		t.Errorf("the opener got %v", b.opened)
	}
}
