package demoserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// With a clock, a handshake-era client hears each tick: the tools list
// changed, and the counter (once subscribed) was updated; reading it
// gives the count.
func TestTickHandshake(t *testing.T) {
	c := startInitialized(t, &Options{Tick: 5 * time.Millisecond}, nil, `{}`)
	if n := c.nextNote(); n.Method != "notifications/tools/list_changed" {
		t.Fatalf("first note %s", n.Method)
	}
	if err := c.call("resources/subscribe", json.RawMessage(`{"uri":"demo://data/counter"}`), nil); err != nil {
		t.Fatal(err)
	}
	for n := c.nextNote(); n.Method != "notifications/resources/updated"; n = c.nextNote() {
	}
	var res struct {
		Contents []struct{ Text string } `json:"contents"`
	}
	if err := c.call("resources/read", json.RawMessage(`{"uri":"demo://data/counter"}`), &res); err != nil || len(res.Contents) != 1 || res.Contents[0].Text == "0" {
		t.Errorf("read: %+v, %v", res, err)
	}
}

// A stateless listen request is acknowledged with what the server agreed
// to (known resources only; no prompts), then gets the ticks it asked
// for, each tagged with its id, until the client cancels it.
func TestListenStateless(t *testing.T) {
	c := start(t, &Options{Stateless: true, Tick: 5 * time.Millisecond}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	params := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["demo://data/counter","demo://nope"]}}`)
	go func() { done <- c.conn.Call(ctx, "subscriptions/listen", params, nil) }()
	ack := c.nextNote()
	if ack.Method != "notifications/subscriptions/acknowledged" ||
		!strings.Contains(string(ack.Params), `"notifications":{"toolsListChanged":true,"resourceSubscriptions":["demo://data/counter"]}`) ||
		!strings.Contains(string(ack.Params), `"io.modelcontextprotocol/subscriptionId":1`) {
		t.Fatalf("ack %s %s", ack.Method, ack.Params)
	}
	seen := map[string]bool{}
	for len(seen) < 2 {
		n := c.nextNote()
		if !strings.Contains(string(n.Params), `"io.modelcontextprotocol/subscriptionId":1`) {
			t.Errorf("%s without the subscription's id: %s", n.Method, n.Params)
		}
		seen[n.Method] = true
	}
	if !seen["notifications/tools/list_changed"] || !seen["notifications/resources/updated"] {
		t.Errorf("notes %v", seen)
	}
	cancel()
	<-done
	c.conn.Notify(context.Background(), "notifications/cancelled", json.RawMessage(`{"requestId":1}`))
}

// Without the stateless era, subscriptions/listen is an unknown method.
func TestListenNeedsStateless(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	err := c.call("subscriptions/listen", json.RawMessage(`{"notifications":{}}`), nil)
	wantCode(t, err, -32601)
}
