package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// mcpc web prints the page's URL as the first line of stdout and serves
// the configured servers there until interrupted.
func TestWebServesTheConfiguredServers(t *testing.T) {
	dir := demoDir(t)
	opened := make(chan string, 1)
	old := openBrowser
	openBrowser = func(u string) error { opened <- u; return nil }
	defer func() { openBrowser = old }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan struct{})
	stdout := &watchWriter{want: "\n", seen: seen}
	var stderr bytes.Buffer
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(""), stdout: stdout, stderr: &stderr}
	done := make(chan int, 1)
	go func() { done <- c.run(ctx, []string{"--server", "demo", "--open", "web"}) }()
	select {
	case <-seen:
	case code := <-done:
		t.Fatalf("mcpc web ended with %d:\n%s", code, stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("no URL printed")
	}
	url := strings.TrimSpace(stdout.String())
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.Contains(url, "/t/") {
		t.Fatalf("first line %q is not the page's URL", url)
	}
	select {
	case u := <-opened:
		if u != url {
			t.Errorf("--open opened %q, not the printed URL", u)
		}
	case <-time.After(5 * time.Second):
		t.Error("--open opened nothing")
	}
	resp, err := http.Get(url + "api/tools")
	if err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Name string `json:"name"`
	}
	json.NewDecoder(resp.Body).Decode(&tools)
	resp.Body.Close()
	found := false
	for _, tl := range tools {
		found = found || tl.Name == "mcp__demo__add"
	}
	if !found {
		t.Errorf("the page lists %v, not the demo server's tools", tools)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("mcpc web did not stop when interrupted")
	}
}

func TestWebRefusesANonLoopbackAddress(t *testing.T) {
	r := runIn(t, demoDir(t), "", "--server", "demo", "--addr", "0.0.0.0:0", "web")
	r.want(t, 2, "loopback")
}
