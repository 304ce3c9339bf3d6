package webui

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/cmd/mcpc/internal/formbound"
	"github.com/plainmcp/plainmcp/internal/logging"
	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// Bounds of the inbox: the events it keeps for the page, the bytes of
// each one's text, the requests that may wait for the person at once
// (more are declined: a server cannot pile up questions), and the bytes
// of a request's parameters (a bigger one is declined: the page cannot
// show half of one). A request's parameters are kept only while it
// waits, so at most inboxWaiting×inboxRequest bytes are held for them.
const (
	inboxEvents  = 1000
	inboxText    = 4 << 10
	inboxWaiting = 32
	inboxRequest = 1 << 20
)

// Inbox is what servers say and ask on their own, held for the page:
// log messages, list changes and stderr lines, and the sampling and
// elicitation requests a person answers there. Hook gives a server's
// session options the handlers that feed it. It is safe for concurrent
// use; the zero value is ready.
type Inbox struct {
	mu      sync.Mutex
	seq     int64
	events  []Event           // the last inboxEvents, oldest first
	waiting map[int64]*asking // requests the person has not answered
	roots   []mcpclient.Root  // what servers may see (roots.go)
}

// Event is one thing a server said or asked. Text is the server's, shown
// as text only; Request is a request's parameters as the server sent
// them. Answered events name the request they answer (Of).
type Event struct {
	Seq     int64           `json:"seq"`
	Server  string          `json:"server"`
	Kind    string          `json:"kind"` // log, list, stderr, sampling, elicitation, url, answered
	Time    time.Time       `json:"time"`
	Level   string          `json:"level,omitempty"`
	Text    string          `json:"text,omitempty"`
	Request json.RawMessage `json:"request,omitempty"`
	Of      int64           `json:"of,omitempty"`
}

// asking is a request waiting for the person's answer.
type asking struct {
	answer chan Answer // 1-buffered, sent once
}

// Answer is the person's answer to a request: Action is accept, decline
// or cancel; Text a sampling reply; Content an elicitation form's fields.
type Answer struct {
	ID      int64          `json:"id"`
	Action  string         `json:"action"`
	Text    string         `json:"text"`
	Content map[string]any `json:"content"`
}

var (
	errTooManyAsks = errors.New("too many requests wait for the person")
	errAskTooLarge = errors.New("the request is too large to show the person")
	errNoSuchAsk   = errors.New("no request with this id waits for an answer")
)

func cut(s string) string { return cutTo(s, inboxText) }

// cutTo cuts s to at most n bytes, at a character's start, marking the cut.
func cutTo(s string, n int) string {
	if len(s) > n {
		return s[:runeStartBefore(s, n)] + "…"
	}
	return s
}

func runeStartBefore(s string, n int) int {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

// add records an event and returns its sequence number.
func (in *Inbox) add(e Event) int64 {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.addLocked(e)
}

func (in *Inbox) addLocked(e Event) int64 {
	in.seq++
	e.Seq, e.Time, e.Text = in.seq, time.Now(), cut(e.Text)
	if len(in.events) == inboxEvents {
		copy(in.events, in.events[1:])
		in.events = in.events[:inboxEvents-1]
	}
	in.events = append(in.events, e)
	return e.Seq
}

// Since returns the events after seq, oldest first.
func (in *Inbox) Since(seq int64) []Event {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := []Event{}
	for _, e := range in.events {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out
}

// ask records a request and waits for the person's answer, or for ctx
// (the server cancelled, the session ended).
func (in *Inbox) ask(ctx context.Context, e Event) (Answer, error) {
	if len(e.Request) > inboxRequest {
		in.add(Event{Server: e.Server, Kind: "log", Level: "warning", Text: "declined a " + e.Kind + " request of over 1 MiB"})
		return Answer{}, errAskTooLarge
	}
	a := &asking{answer: make(chan Answer, 1)}
	in.mu.Lock()
	if len(in.waiting) >= inboxWaiting {
		in.mu.Unlock()
		return Answer{}, errTooManyAsks
	}
	if in.waiting == nil {
		in.waiting = map[int64]*asking{}
	}
	id := in.addLocked(e)
	in.waiting[id] = a
	in.mu.Unlock()
	defer in.settle(id)
	select {
	case ans := <-a.answer:
		in.add(Event{Server: e.Server, Kind: "answered", Of: id, Text: ans.Action})
		return ans, nil
	case <-ctx.Done():
		in.add(Event{Server: e.Server, Kind: "answered", Of: id, Text: "withdrawn"})
		return Answer{}, ctx.Err()
	}
}

// settle forgets the request id once it is answered or withdrawn: it no
// longer waits, and the events keep no more than its kind.
func (in *Inbox) settle(id int64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	delete(in.waiting, id)
	for i := range in.events {
		if in.events[i].Seq == id {
			in.events[i].Request = nil
		}
	}
}

// answer hands the person's answer to the request waiting for it.
func (in *Inbox) answer(ans Answer) error {
	in.mu.Lock()
	a := in.waiting[ans.ID]
	delete(in.waiting, ans.ID)
	in.mu.Unlock()
	if a == nil {
		return errNoSuchAsk
	}
	a.answer <- ans
	return nil
}

// Hook gives o, the session options of server, the handlers that bring
// what it says and asks to the page: its log messages, list changes and
// stderr lines (through o.Logger, which sees them at Debug), and, when
// sampling or elicitation are true, the page's answers to those
// requests, declared to the server (URL-mode elicitation too). Roots are
// declared, and answered with the page's list (SetRoots).
func (in *Inbox) Hook(server string, o *mcpclient.Options, sampling, elicitation bool) {
	prevLog, prevList := o.OnLog, o.OnListChanged
	o.OnLog = func(m mcpclient.LogMessage) {
		in.add(Event{Server: server, Kind: "log", Level: m.Level, Text: logText(m)})
		if prevLog != nil {
			prevLog(m)
		}
	}
	o.OnListChanged = func(kind string) {
		in.add(Event{Server: server, Kind: "list", Text: kind})
		if prevList != nil {
			prevList(kind)
		}
	}
	o.Logger = &stderrLines{in: in, server: server, next: logging.Usable(o.Logger)}
	o.Roots = in.rootsHandler // the page's list, which starts as the host's
	if sampling {
		o.Sampling, o.SamplingTools = in.sampler(server), false
	}
	if elicitation {
		o.Elicitation, o.ElicitationURL = in.elicitor(server), true
	}
}

func logText(m mcpclient.LogMessage) string {
	var s string
	if json.Unmarshal(m.Data, &s) != nil {
		s = string(m.Data)
	}
	if m.Logger != "" {
		s = m.Logger + ": " + s
	}
	return s
}

// sampler asks the person to write the model's reply.
func (in *Inbox) sampler(server string) mcpclient.SamplingHandler {
	return func(ctx context.Context, p *mcpclient.CreateMessageParams) (*mcpclient.CreateMessageResult, error) {
		req, _ := json.Marshal(p)
		ans, err := in.ask(ctx, Event{Server: server, Kind: "sampling", Request: req})
		if err != nil {
			return nil, err
		}
		if ans.Action != "accept" {
			return nil, &jsonrpc.Error{Code: -1, Message: "the person declined the sampling request"}
		}
		return &mcpclient.CreateMessageResult{Role: "assistant", Content: mcpclient.ContentList{{Type: "text", Text: ans.Text}},
			Model: "person", StopReason: "endTurn"}, nil
	}
}

// elicitor asks the person to fill in a form, or to open a page: a URL
// safeurl refuses, and a form over formbound's bounds (the terminal's
// too), are declined without being shown.
func (in *Inbox) elicitor(server string) mcpclient.ElicitationHandler {
	return func(ctx context.Context, p *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
		kind := "elicitation"
		if p.Mode != "url" {
			if err := formbound.Check(p.RequestedSchema); err != nil {
				in.add(Event{Server: server, Kind: "log", Level: "warning", Text: "declined a form unshown: " + err.Error()})
				return &mcpclient.ElicitResult{Action: "decline"}, nil
			}
		}
		if p.Mode == "url" {
			kind = "url"
			if _, err := safeurl.Parse("the page's URL", p.URL); err != nil {
				in.add(Event{Server: server, Kind: "log", Level: "warning", Text: "declined a request to open a page: " + err.Error()})
				return &mcpclient.ElicitResult{Action: "decline"}, nil
			}
		}
		req, _ := json.Marshal(p)
		ans, err := in.ask(ctx, Event{Server: server, Kind: kind, Request: req})
		if err != nil {
			return nil, err
		}
		switch ans.Action {
		case "accept":
			if kind == "url" {
				return &mcpclient.ElicitResult{Action: "accept"}, nil
			}
			return &mcpclient.ElicitResult{Action: "accept", Content: ans.Content}, nil
		case "decline":
			return &mcpclient.ElicitResult{Action: "decline"}, nil
		}
		return &mcpclient.ElicitResult{Action: "cancel"}, nil
	}
}
