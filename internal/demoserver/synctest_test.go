//go:build go1.25

package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// The tests in this file run in a synctest bubble: the slow tool's delays
// pass on the bubble's clock, and synctest.Wait marks the moment every
// goroutine waits — the tool on its timer, every notification delivered —
// where the tests used to sleep.

func TestSlowToolCancelled(t *testing.T) {
	synctest.Test(t, testSlowToolCancelled)
}

func testSlowToolCancelled(t *testing.T) {
	c := connectDemo(t, nil, nil)
	c.initialize(LatestVersion, `{}`)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	params := json.RawMessage(`{"name":"slow","arguments":{"steps":1000,"delayMs":5},"_meta":{"progressToken":"p"}}`)
	go func() { done <- c.conn.Call(ctx, "tools/call", params, nil) }()

	// Wait until the tool is running, then cancel as a client does.
	if n := c.nextNote(); n.Method != "notifications/progress" {
		t.Fatalf("got %s, want progress", n.Method)
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("Call succeeded after its context ended")
	}
	// The client conn has no OnAbandon here: send the cancellation by hand.
	// Our conn numbers its calls 1 (initialize), 2 (this one).
	cancelled := json.RawMessage(`{"requestId":2,"reason":"test"}`)
	if err := c.conn.Notify(context.Background(), "notifications/cancelled", cancelled); err != nil {
		t.Fatal(err)
	}
	c.serverLog.waitFor(t, "cancel requested", "id=2", "found=true")
	c.serverLog.waitFor(t, "tool call ended", "tool=slow", "context canceled")

	// No response for the cancelled request, and progress stopped.
	if err := c.call("ping", nil, nil); err != nil {
		t.Fatal(err)
	}
	synctest.Wait() // every notification sent is in c.notes
	for len(c.notes) > 0 {
		<-c.notes // progress sent before the cancellation took effect
	}
	c.noNote(30 * time.Millisecond)
	if log := c.clientLog.String(); strings.Contains(log, "dropping response") {
		t.Errorf("the server answered the cancelled request:\n%s", log)
	}
}

func TestServeStopsWhenContextEnds(t *testing.T) {
	synctest.Test(t, testServeStopsWhenContextEnds)
}

func testServeStopsWhenContextEnds(t *testing.T) {
	a, b := transport.Pipe()
	defer a.Close()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- New(nil).Serve(ctx, b) }()

	// A request in progress is cut short, and Serve waits for it.
	conn := jsonrpc.NewConn(a, nil)
	defer conn.Close()
	if err := conn.Call(context.Background(), "initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{}}`), nil); err != nil {
		t.Fatal(err)
	}
	go conn.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"slow","arguments":{"steps":1,"delayMs":60000}}`), nil)
	synctest.Wait() // the slow tool is waiting out its minute
	cancel()
	select {
	case err := <-served:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Serve = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after ctx ended")
	}
	if _, err := b.Read(); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("stream read after Serve = %v, want it closed", err)
	}
}

// After the client's EOF, Serve waits for a request in flight no longer
// than its linger (or not at all, negative), and answers nothing late.
func TestLingerIsBounded(t *testing.T) {
	for _, linger := range []time.Duration{50 * time.Millisecond, -1} {
		synctest.Test(t, func(t *testing.T) {
			s := newScript(initFrame, verySlowFrame)
			begin := time.Now()
			if err := New(&Options{Linger: linger}).Serve(context.Background(), s); err != nil {
				t.Fatalf("Serve = %v", err)
			}
			if took := time.Since(begin); took != max(linger, 0) {
				t.Errorf("linger %v: Serve took %v", linger, took)
			}
			if ids := s.responseIDs(); len(ids) > 1 {
				t.Errorf("linger %v: responses %v, want none for the slow call", linger, ids)
			}
		})
	}
}

// An open subscriptions/listen request lasts until the client ends it, as
// a client that closed its side of the stream has: Serve does not linger
// for it (a stateless mcpc command took the whole linger, 2 s, to end).
func TestOpenListenDoesNotLinger(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		listen := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"notifications":{"toolsListChanged":true}}}`
		s := newScript(listen)
		begin := time.Now()
		if err := New(&Options{Stateless: true}).Serve(context.Background(), s); err != nil {
			t.Fatalf("Serve = %v", err)
		}
		if took := time.Since(begin); took != 0 {
			t.Errorf("Serve took %v after the client's EOF, with only a listen open", took)
		}
		if s.out == nil || !strings.Contains(s.out[0], "notifications/subscriptions/acknowledged") {
			t.Errorf("the listen was not acknowledged: %q", s.out)
		}
	})
}
