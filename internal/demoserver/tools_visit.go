package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The visit tool asks the user to open a page (URL-mode elicitation,
// 2025-11-25, and the stateless era's URL input request). The page is
// served by Options.VisitPage, on loopback, and loading it is the
// out-of-band step the server waits for.

// codeURLElicitationRequired is MCP's error code for "visit these pages,
// then ask again" (kept here: the server side does not import the client).
const codeURLElicitationRequired = -32042

// maxVisits bounds the pages one session keeps track of.
const maxVisits = 64

var visitTool = newTool(toolDef{
	Name: "visit", Title: "Visit",
	Description: "Asks the user to open a page this server serves on loopback (URL-mode elicitation) and waits until it is loaded. " +
		"With required, it answers the URL-elicitation-required error (-32042) instead of asking, until the page has been loaded.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{` +
		`"message":{"type":"string","description":"What to tell the user."},` +
		`"required":{"type":"boolean","description":"Answer -32042 rather than asking."},` +
		`"waitMs":{"type":"integer","default":30000,"description":"How long to wait for the page once the user agreed."}}}`),
}, visitToolRun)

// visits are a session's pages: each id's channel is closed when its page
// is loaded.
type visits struct {
	mu       sync.Mutex
	n        int
	pages    map[string]chan struct{}
	loaded   map[string]bool // set before the completion notice goes out
	order    []string
	required string // the page a required visit waits for
}

// open makes a page for a new elicitation id; loading it closes the id's
// channel and tells the client (handshake era) that the elicitation is
// complete.
func (ss *session) openVisit(complete bool) (id, url string, err error) {
	v := &ss.visits
	v.mu.Lock()
	v.n++
	id = fmt.Sprintf("visit-%d", v.n)
	done := make(chan struct{})
	if v.pages == nil {
		v.pages = map[string]chan struct{}{}
	}
	v.pages[id] = done
	v.order = append(v.order, id)
	if len(v.order) > maxVisits {
		delete(v.pages, v.order[0])
		delete(v.loaded, v.order[0])
		v.order = v.order[1:]
	}
	v.mu.Unlock()
	var once sync.Once
	url, err = ss.srv.visitPage(id, func() {
		once.Do(func() {
			// The page counts as loaded before the notice goes out, so a
			// client that calls again on hearing it finds it loaded; the
			// notice goes out before the waiting tool may answer, so the
			// client hears it before the call it belongs to ends.
			v.mu.Lock()
			if v.loaded == nil {
				v.loaded = map[string]bool{}
			}
			if _, kept := v.pages[id]; kept {
				v.loaded[id] = true
			}
			v.mu.Unlock()
			if complete {
				ss.notifyClient(context.Background(), "notifications/elicitation/complete", map[string]string{"elicitationId": id})
			}
			close(done)
		})
	})
	return id, url, err
}

// visited reports whether id's page has been loaded, waiting up to wait.
func (ss *session) visited(ctx context.Context, id string, wait time.Duration) bool {
	ss.visits.mu.Lock()
	done := ss.visits.pages[id]
	ss.visits.mu.Unlock()
	if done == nil {
		return false
	}
	select {
	case <-done:
		return true // loaded already: no timer to race
	default:
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

type visitArgs struct {
	Message  string `json:"message"`
	Required bool   `json:"required"`
	WaitMs   *int   `json:"waitMs"`
}

type urlElicitation struct {
	Mode          string `json:"mode"`
	ElicitationID string `json:"elicitationId,omitempty"`
	URL           string `json:"url"`
	Message       string `json:"message"`
}

func visitToolRun(ctx context.Context, c *call) (*toolResult, error) {
	var a visitArgs
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	wait := 30 * time.Second
	if a.WaitMs != nil {
		if *a.WaitMs < 0 || *a.WaitMs > 600000 {
			return nil, invalidParams("tool %q: argument %q must be between 0 and 600000", c.name, "waitMs")
		}
		wait = time.Duration(*a.WaitMs) * time.Millisecond
	}
	if a.Message == "" {
		a.Message = "Open this page to finish."
	}
	if c.ss.stateless(&jsonrpc.Request{Method: "tools/call", Params: c.params}) {
		return c.ss.visitStateless(ctx, c, a, wait)
	}
	caps, _ := c.ss.caps()
	if !caps.elicitsURLs() {
		return errorResult("the visit tool needs the client's elicitation.url capability, which it did not declare"), nil
	}
	if a.Required {
		return c.ss.visitRequired(a)
	}
	id, url, err := c.ss.openVisit(true)
	if err != nil {
		return errorResult("no page to visit: %v", err), nil
	}
	var res struct {
		Action string `json:"action"`
	}
	err = c.ss.conn.Call(ctx, "elicitation/create", urlElicitation{Mode: "url", ElicitationID: id, URL: url, Message: a.Message}, &res)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return errorResult("elicitation failed: %v", err), nil
	}
	return c.ss.visitOutcome(ctx, id, res.Action, wait), nil
}

// visitOutcome waits for the page once the user accepted.
func (ss *session) visitOutcome(ctx context.Context, id, action string, wait time.Duration) *toolResult {
	if action != "accept" {
		return textResult("action: %s", action)
	}
	if !ss.visited(ctx, id, wait) {
		return errorResult("the page of %s was not loaded within %v", id, wait)
	}
	return textResult("the page of %s was visited", id)
}

// visitRequired answers -32042 until the page it named has been loaded.
func (ss *session) visitRequired(a visitArgs) (*toolResult, error) {
	ss.visits.mu.Lock()
	id := ss.visits.required
	loaded := id != "" && ss.visits.loaded[id]
	if loaded {
		ss.visits.required = ""
	}
	ss.visits.mu.Unlock()
	if loaded {
		return textResult("the page of %s was visited", id), nil
	}
	id, url, err := ss.openVisit(true)
	if err != nil {
		return errorResult("no page to visit: %v", err), nil
	}
	ss.visits.mu.Lock()
	ss.visits.required = id
	ss.visits.mu.Unlock()
	data := map[string]any{"elicitations": []urlElicitation{{Mode: "url", ElicitationID: id, URL: url, Message: a.Message}}}
	return nil, &jsonrpc.Error{Code: codeURLElicitationRequired, Message: "this request needs the user to visit a page first", Data: mustJSON(data)}
}

// visitStateless asks through an input request: the first call answers
// input_required with the page, whose id is the request state; the retry
// carries the user's answer.
func (ss *session) visitStateless(ctx context.Context, c *call, a visitArgs, wait time.Duration) (*toolResult, error) {
	var p struct {
		InputResponses map[string]struct {
			Action string `json:"action"`
		} `json:"inputResponses"`
		RequestState string `json:"requestState"`
		Meta         struct {
			Caps struct {
				Elicitation json.RawMessage `json:"elicitation"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	}
	json.Unmarshal(c.params, &p)
	if !(clientCaps{Elicitation: p.Meta.Caps.Elicitation}).elicitsURLs() {
		return errorResult("the visit tool needs the client's elicitation.url capability, which it did not declare"), nil
	}
	if answer, ok := p.InputResponses["visit"]; ok && p.RequestState != "" {
		return ss.visitOutcome(ctx, p.RequestState, answer.Action, wait), nil
	}
	id, url, err := ss.openVisit(false)
	if err != nil {
		return errorResult("no page to visit: %v", err), nil
	}
	return &toolResult{encoded: mustJSON(map[string]any{
		"resultType": "input_required",
		"inputRequests": map[string]any{"visit": map[string]any{
			"method": "elicitation/create",
			"params": urlElicitation{Mode: "url", URL: url, Message: a.Message},
		}},
		"requestState": id,
	})}, nil
}

// elicitsURLs reports whether the client declared URL-mode elicitation.
func (c clientCaps) elicitsURLs() bool {
	var modes map[string]json.RawMessage
	if !declared(c.Elicitation) || json.Unmarshal(c.Elicitation, &modes) != nil {
		return false
	}
	_, ok := modes["url"]
	return ok
}
