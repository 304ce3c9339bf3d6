package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// URL-mode elicitation: a server asks the person to open one of its
// pages (to sign in elsewhere, pay, enter a key mcpc must not see). mcpc
// shows the page's host and whole URL, asks whether to open it (accept,
// decline or cancel), opens it with the opener login uses, and answers
// accept, which tells the server the person agreed, not that they are
// done. In the handshake era the server may then say the step is complete
// (notifications/elicitation/complete), which mcpc reports; a tool call
// answered with -32042 lists the pages to visit first, and mcpc retries
// it once the server says they are done.

// visits is mcpc's side of URL-mode elicitation, for every server.
type visits struct {
	out  io.Writer // stderr
	ask  *asker    // the person at the terminal; nil when there is none
	open bool      // --open-urls: open without asking
	page bool      // mcpc web: the page shows the pages to open, not the terminal

	showing sync.Mutex // one page shown and asked about at a time

	mu      sync.Mutex
	pending map[visitKey]*visit
	server  string // the server of the last tool call (see called)
}

type visitKey struct{ server, id string }

type visit struct {
	host string
	done chan struct{}
}

// maxVisitURL bounds the URL of a page mcpc shows: it is printed whole.
const maxVisitURL = 4096

// maxPending bounds the visits waited for at once: each is a page a
// server made the person open.
const maxPending = 64

// elicit answers a URL-mode request of server's, and hands the others
// to form (nil: decline them).
func (v *visits) elicit(server string, form mcpclient.ElicitationHandler) mcpclient.ElicitationHandler {
	return func(ctx context.Context, p *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
		if p.Mode != "url" {
			if form == nil {
				return &mcpclient.ElicitResult{Action: "decline"}, nil
			}
			return form(withFormServer(ctx, server), p)
		}
		return &mcpclient.ElicitResult{Action: v.offer(server, p)}, nil
	}
}

// checkVisitURL returns the URL's host if mcpc may show and open it: an
// https URL, or http on loopback (safeurl.Parse), in printable ASCII, so
// that the text shown is the page opened and one host cannot pass for
// another.
func checkVisitURL(raw string) (string, error) {
	if len(raw) > maxVisitURL {
		return "", fmt.Errorf("the page's URL is over %d bytes, too long to show whole", maxVisitURL)
	}
	u, err := safeurl.Parse("the page's URL", raw)
	if err != nil {
		return "", err
	}
	for _, r := range raw {
		if r <= ' ' || r >= 0x7f {
			return "", errors.New("the page's URL holds spaces, control or non-ASCII characters, which can make one address look like another")
		}
	}
	return u.Host, nil
}

// offer shows the page, asks, opens it on yes, and returns the action.
func (v *visits) offer(server string, p *mcpclient.ElicitParams) string {
	v.showing.Lock() // two servers asking at once are shown one after the other
	defer v.showing.Unlock()
	host, err := checkVisitURL(p.URL)
	if err != nil {
		fmt.Fprintf(v.out, "\nServer %q asks you to open a page: %s\n  declined: %s\n", clean(server), saying(p.Message), oneLine(err.Error()))
		return "decline"
	}
	fmt.Fprintf(v.out, "\nServer %q asks you to open a page on %s: %s\n  %s\n", clean(server), host, saying(p.Message), p.URL)
	action := v.decide()
	if action != "accept" {
		return action
	}
	if p.ElicitationID != "" {
		v.expect(server, p.ElicitationID, host) // before opening: the completion may come at once
	}
	if err := openBrowser(p.URL); err != nil {
		fmt.Fprintf(v.out, "  could not open it (%s): open it yourself\n", oneLine(err.Error()))
	} else {
		fmt.Fprintln(v.out, "  opened in the browser")
	}
	return "accept"
}

// decide asks the person, or follows --open-urls; with no one to ask the
// page is declined.
func (v *visits) decide() string {
	if v.open {
		return "accept"
	}
	if v.ask == nil {
		fmt.Fprintln(v.out, "  declined: no terminal to ask at (--open-urls opens such pages)")
		return "decline"
	}
	v.ask.mu.Lock()
	defer v.ask.mu.Unlock()
	fmt.Fprint(v.ask.out, "  Open it? [y]es, [n]o (decline), [c]ancel: ")
	line, err := v.ask.in.ReadString('\n')
	if err != nil && line == "" {
		return "cancel" // no more input: the person walked away
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return "accept"
	case "c", "cancel":
		return "cancel"
	}
	return "decline"
}

// saying is a server's message, one printable line, in quotes.
func saying(msg string) string {
	return `"` + oneLine(clean(msg)) + `"`
}

// expect notes a visit whose completion the server may announce.
func (v *visits) expect(server, id, host string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.pending == nil {
		v.pending = map[visitKey]*visit{}
	}
	if len(v.pending) < maxPending {
		v.pending[visitKey{server, id}] = &visit{host: host, done: make(chan struct{})}
	}
}

// completed is server's notifications/elicitation/complete: a visit mcpc
// waits for is done; any other id is ignored, as the specification says.
func (v *visits) completed(server string) func(id string) {
	return func(id string) {
		v.mu.Lock()
		w := v.pending[visitKey{server, id}]
		delete(v.pending, visitKey{server, id})
		v.mu.Unlock()
		if w != nil {
			close(w.done)
			fmt.Fprintf(v.out, "Server %q says the page on %s is done.\n", clean(server), w.host)
		}
	}
}

// wait waits, up to bound, for the server to say the visits of ids are
// done.
func (v *visits) wait(ctx context.Context, server string, ids []string, bound time.Duration) error {
	t := time.NewTimer(bound)
	defer t.Stop()
	for _, id := range ids {
		v.mu.Lock()
		w := v.pending[visitKey{server, id}]
		v.mu.Unlock()
		if w == nil {
			continue // done already
		}
		select {
		case <-w.done:
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return fmt.Errorf("server %q did not say the page on %s was done within %v (--timeout)", clean(server), w.host, bound)
		}
	}
	return nil
}

// unfinished reports, as the command ends, the visits no server said
// were done, and forgets them.
func (v *visits) unfinished() {
	v.mu.Lock()
	defer v.mu.Unlock()
	for k, w := range v.pending {
		fmt.Fprintf(v.out, "Server %q never said the page on %s was done.\n", clean(k.server), w.host)
	}
	v.pending = nil
}

// called notes the server of a tool call, which a -32042 answer names no
// other way (toolreg's OnToolCall hook runs before Call returns).
func (v *visits) called(server string) {
	v.mu.Lock()
	v.server = server
	v.mu.Unlock()
}

// lastCalled is the server of the last tool call (see called).
func (v *visits) lastCalled() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.server
}

// required handles a tool call's -32042 from the server of the last
// call (see called): see requiredBy.
func (v *visits) required(ctx context.Context, err error, bound time.Duration) (bool, error) {
	return v.requiredBy(ctx, v.lastCalled(), err, bound)
}

// requiredBy handles a -32042 of server's: every page shown and, on yes,
// opened; then a wait, up to bound, for the server to say they are done.
// It reports whether the call is worth making again: yes once every page
// was opened, whether or not the server said so.
func (v *visits) requiredBy(ctx context.Context, server string, err error, bound time.Duration) (bool, error) {
	pages := mcpclient.URLElicitations(err)
	if len(pages) == 0 {
		return false, nil
	}
	ids := make([]string, 0, len(pages))
	for i := range pages {
		if action := v.offer(server, &pages[i]); action != "accept" {
			// The person (or the rules for no terminal) said no: a refusal
			// for the exit code, not the server's failure.
			return false, refusedError{msg: fmt.Sprintf("the call needs a page visited first, and it was not (%s): %v", action, err)}
		}
		ids = append(ids, pages[i].ElicitationID)
	}
	fmt.Fprintf(v.out, "Waiting for server %q to say the visit is done…\n", clean(server))
	if werr := v.wait(ctx, server, ids, bound); werr != nil {
		if ctx.Err() != nil {
			return false, werr
		}
		// The completion is optional, and many servers never send it:
		// the server judges the call made again.
		fmt.Fprintf(v.out, "  %s; making the call again.\n", werr)
	}
	return true, nil
}

// withVisits wraps a registry's Dial so that each server's session sends
// URL-mode elicitation to v under the server's name, and declares it
// wherever elicitation is answered (a person at a terminal, --elicitation
// defaults) or --open-urls is given; --elicitation decline declares none.
// Forms go to the handler the flags chose.
func withVisits(cfg *config, dial func(context.Context, *toolreg.ServerConfig, *mcpclient.Options) (*mcpclient.Session, error), v *visits) func(context.Context, *toolreg.ServerConfig, *mcpclient.Options) (*mcpclient.Session, error) {
	return func(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		o := *opts
		if cfg.elicitation != "decline" && !v.page && (opts.Elicitation != nil || v.open) {
			o.Elicitation = v.elicit(sc.Name, opts.Elicitation)
			o.ElicitationURL = true
			o.OnElicitationComplete = v.completed(sc.Name)
		}
		return dial(ctx, sc, &o)
	}
}
