package webui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// The inbox keeps a bounded number of events of bounded text, and a
// bounded number of requests wait for the person at once.
func TestInboxBounds(t *testing.T) {
	leakcheck.Check(t)
	var in Inbox
	for i := 0; i < inboxEvents+10; i++ {
		in.add(Event{Kind: "log", Text: strings.Repeat("é", inboxText)})
	}
	ev := in.Since(0)
	if len(ev) != inboxEvents || ev[0].Seq != 11 {
		t.Errorf("kept %d events from %d, want the last %d", len(ev), ev[0].Seq, inboxEvents)
	}
	if txt := ev[0].Text; len(txt) > inboxText+len("…") || !utf8.ValidString(txt) {
		t.Errorf("an event's text is %d bytes (valid UTF-8: %v)", len(txt), utf8.ValidString(txt))
	}

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	errs := make(chan error, inboxWaiting+1)
	for range inboxWaiting {
		wg.Add(1)
		go func() { defer wg.Done(); _, err := in.ask(ctx, Event{Kind: "sampling"}); errs <- err }()
	}
	for {
		in.mu.Lock()
		n := len(in.waiting)
		in.mu.Unlock()
		if n == inboxWaiting {
			break
		}
		runtime.Gosched()
	}
	if _, err := in.ask(ctx, Event{Kind: "sampling"}); !errors.Is(err, errTooManyAsks) {
		t.Errorf("request %d: %v, want errTooManyAsks", inboxWaiting+1, err)
	}
	if err := in.answer(Answer{ID: 1, Action: "accept"}); !errors.Is(err, errNoSuchAsk) {
		t.Errorf("answering an event that asks nothing: %v", err)
	}
	cancel() // the server withdraws them all
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("a withdrawn request ended with %v", err)
		}
	}
	if n := len(in.waiting); n != 0 {
		t.Errorf("%d requests still wait", n)
	}
}

func TestCheckRoots(t *testing.T) {
	leakcheck.Check(t)
	many := make([]mcpclient.Root, maxRoots+1)
	for i := range many {
		many[i] = mcpclient.Root{URI: "file:///r"}
	}
	for _, tc := range []struct {
		roots []mcpclient.Root
		ok    bool
	}{
		{nil, true},
		{[]mcpclient.Root{{URI: "file:///home/me"}, {URI: "file:///tmp", Name: "tmp"}}, true},
		{[]mcpclient.Root{{URI: "https://example.com/"}}, false},
		{[]mcpclient.Root{{URI: "/home/me"}}, false},
		{[]mcpclient.Root{{URI: "file://"}}, false},
		{[]mcpclient.Root{{URI: "file:///" + strings.Repeat("a", maxRootText)}}, false},
		{many, false},
	} {
		if err := checkRoots(tc.roots); (err == nil) != tc.ok {
			t.Errorf("%d roots, first %.40v: err %v", len(tc.roots), tc.roots, err)
		}
	}
}

// A request's parameters are bounded, and kept only while it waits: a
// server that asks and withdraws over and over cannot fill the inbox's
// events with megabytes each.
func TestInboxRequestBytes(t *testing.T) {
	leakcheck.Check(t)
	var in Inbox
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // each request below but the last is withdrawn at once
	big := []byte(`"` + strings.Repeat("x", inboxRequest) + `"`)
	if _, err := in.ask(ctx, Event{Kind: "sampling", Request: big}); !errors.Is(err, errAskTooLarge) {
		t.Errorf("a request of %d bytes: %v, want errAskTooLarge", len(big), err)
	}
	for range 3 {
		if _, err := in.ask(ctx, Event{Kind: "elicitation", Request: []byte(`{"message":"m"}`)}); !errors.Is(err, context.Canceled) {
			t.Fatalf("withdrawn request: %v", err)
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := in.ask(context.Background(), Event{Kind: "sampling", Request: []byte(`{"maxTokens":1}`)})
		done <- err
	}()
	var waiting int64
	for waiting == 0 {
		for _, e := range in.Since(0) {
			if e.Kind == "sampling" && e.Request != nil {
				waiting = e.Seq
			}
		}
		runtime.Gosched()
	}
	if err := in.answer(Answer{ID: waiting, Action: "decline"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, e := range in.Since(0) {
		if e.Request != nil {
			t.Errorf("event %d (%s) still holds its request after it ended: %s", e.Seq, e.Kind, e.Request)
		}
	}
}

// A form over the bounds the terminal holds to (formbound) is declined
// without reaching the page, with a warning that says why; one within
// them waits for the person.
func TestInboxDeclinesAFormOverTheBounds(t *testing.T) {
	leakcheck.Check(t)
	var in Inbox
	elicit := in.elicitor("hostile")
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range 100_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"f%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	res, err := elicit(context.Background(), &mcpclient.ElicitParams{Message: "m", RequestedSchema: json.RawMessage(b.String())})
	if err != nil || res.Action != "decline" {
		t.Fatalf("%+v, %v; want decline", res, err)
	}
	ev := in.Since(0)
	if len(ev) != 1 || ev[0].Kind != "log" || ev[0].Server != "hostile" || !strings.Contains(ev[0].Text, "100000 fields") {
		t.Errorf("events: %+v", ev)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := elicit(ctx, &mcpclient.ElicitParams{Message: "m", RequestedSchema: json.RawMessage(`{"properties":{"a":{"type":"string"}}}`)}); !errors.Is(err, context.Canceled) {
		t.Errorf("a form within the bounds: %v, want it to wait (and be withdrawn)", err)
	}
}
