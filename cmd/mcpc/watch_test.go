package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// watchDir has the demo server with a clock in both eras.
func watchDir(t *testing.T) string {
	dir := t.TempDir()
	still := demoEntry(t)
	still["timeout"] = 20000 // its start is not bounded by --timeout
	writeConfig(t, dir, ".mcp.json", map[string]any{
		"handshake": demoEntry(t, "-tick", "20ms"),
		"stateless": demoEntry(t, "-tick", "20ms", "-stateless"),
		"still":     still,
	})
	return dir
}

// mcpc watch subscribes to a resource in either era and prints a line per
// update; --read reads it again each time; --json prints JSON lines.
func TestWatchResourceBothEras(t *testing.T) {
	t.Parallel() // beside the era cache test, which waits out a probe
	dir := watchDir(t)
	for _, server := range []string{"handshake", "stateless"} {
		t.Run(server, func(t *testing.T) {
			r := runIn(t, dir, "", "--count", "2", "watch", server+":demo://data/counter")
			r.want(t, exitOK)
			want := "[" + server + "] updated demo://data/counter\n"
			if r.stdout != want+want {
				t.Errorf("stdout %q, want two lines %q", r.stdout, want)
			}
			r = runIn(t, dir, "", "--server", server, "--read", "--json", "--count", "2", "watch", "demo://data/counter")
			r.want(t, exitOK)
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			if len(lines) != 2 {
				t.Fatalf("stdout %q, want two JSON lines", r.stdout)
			}
			for _, l := range lines {
				var ev watchEvent
				if err := json.Unmarshal([]byte(l), &ev); err != nil || ev.Server != server || ev.Kind != "resource_updated" ||
					ev.URI != "demo://data/counter" || len(ev.Contents) != 1 || ev.Contents[0].Text == "" {
					t.Errorf("event %q (%v)", l, err)
				}
			}
		})
	}
}

// With --lists (or no resource named) every selected server's list
// changes are printed, in both eras; a server that never changes prints
// nothing and the watch ends at --timeout, exit 0.
func TestWatchLists(t *testing.T) {
	t.Parallel() // beside the era cache test, which waits out a probe
	dir := watchDir(t)
	for _, server := range []string{"handshake", "stateless"} {
		r := runIn(t, dir, "", "--server", server, "--count", "2", "watch")
		r.want(t, exitOK)
		want := "[" + server + "] tools list changed\n"
		if r.stdout != want+want {
			t.Errorf("%s: stdout %q, want two lines %q", server, r.stdout, want)
		}
	}
	r := runIn(t, dir, "", "--server", "still", "--timeout", "300ms", "watch", "--lists")
	r.want(t, exitOK)
	if r.stdout != "" {
		t.Errorf("stdout %q", r.stdout)
	}
}

// A resource the server does not have is an error (exit 1), in either era.
func TestWatchUnknownResource(t *testing.T) {
	dir := watchDir(t)
	r := runIn(t, dir, "", "--server", "handshake", "watch", "demo://nope")
	r.want(t, exitFailure, `watching demo://nope of server "handshake"`)
	r = runIn(t, dir, "", "watch", "demo://data/counter")
	r.want(t, exitUsage, "3 servers are selected")
}

// Ctrl-C ends a watch with 130, and the servers are shut down.
func TestWatchInterrupted(t *testing.T) {
	leakcheck.Check(t)
	dir := watchDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan struct{})
	stdout := &watchWriter{want: "updated", seen: seen}
	var stderr bytes.Buffer
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(""), stdout: stdout, stderr: &stderr}
	done := make(chan int, 1)
	go func() { done <- c.run(ctx, []string{"--server", "stateless", "watch", "demo://data/counter"}) }()
	select {
	case <-seen:
	case code := <-done:
		t.Fatalf("watch ended with %d:\n%s", code, stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("no event")
	}
	cancel()
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Errorf("exit %d, want %d", code, exitInterrupted)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("watch did not end after the interrupt")
	}
}

// A server faster than the printer loses its oldest events, never the
// newest, and never blocks its session; the count is reported.
func TestWatchQueueIsBounded(t *testing.T) {
	w := &watcher{events: make(chan watchEvent, maxQueued)}
	for i := 0; i < maxQueued+10; i++ {
		w.add(watchEvent{Server: "s", Kind: "resource_updated", URI: "u" + strconv.Itoa(i)})
	}
	if len(w.events) != maxQueued || w.dropped != 10 {
		t.Fatalf("%d queued, %d dropped; want %d and 10", len(w.events), w.dropped, maxQueued)
	}
	if first := <-w.events; first.URI != "u10" {
		t.Errorf("oldest kept %q, want u10", first.URI)
	}
	var stderr bytes.Buffer
	w.report(&env{stderr: &stderr})
	if !strings.Contains(stderr.String(), "10 earlier events dropped") || w.dropped != 0 {
		t.Errorf("report %q, dropped now %d", stderr.String(), w.dropped)
	}
}
