package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// mcpc web declares sampling and elicitation and brings them to the
// page: a tool that samples waits for the person's reply there.
func TestWebAnswersSamplingOnThePage(t *testing.T) {
	page, post := startWeb(t)
	result := make(chan map[string]any, 1)
	go func() {
		result <- post("call", `{"from":"person","name":"mcp__demo__sample","args":{"prompt":"Say hi"}}`)
	}()
	var asked int64
	for deadline := time.Now().Add(15 * time.Second); asked == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(page + "api/events?since=0")
		if err != nil {
			t.Fatal(err)
		}
		var events []struct {
			Seq     int64           `json:"seq"`
			Kind    string          `json:"kind"`
			Request json.RawMessage `json:"request"`
		}
		json.NewDecoder(resp.Body).Decode(&events)
		resp.Body.Close()
		for _, e := range events {
			if e.Kind == "sampling" && bytes.Contains(e.Request, []byte("Say hi")) {
				asked = e.Seq
			}
		}
	}
	if asked == 0 {
		t.Fatal("no sampling request reached the page")
	}
	post("answer", `{"id":`+strconv.FormatInt(asked, 10)+`,"action":"accept","text":"Hi from a person"}`)
	select {
	case r := <-result:
		if b, _ := json.Marshal(r["content"]); !strings.Contains(string(b), "Hi from a person") {
			t.Errorf("the tool returned %s, not the person's reply", b)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the call did not end after the reply")
	}
}

// A call that runs as a task shows the task's state on the page, and the
// page's Cancel ends it.
func TestWebShowsATaskAndCancelsIt(t *testing.T) {
	page, post := startWeb(t)
	result := make(chan map[string]any, 1)
	go func() {
		result <- post("call", `{"from":"person","name":"mcp__demo__research","args":{"topic":"pipes","steps":100,"delayMs":10000},"id":"t1"}`)
	}()
	var status string
	for deadline := time.Now().Add(15 * time.Second); status == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(page + "api/progress?id=t1")
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Task *struct {
				ID, Status string
			} `json:"task"`
		}
		json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if p.Task != nil && p.Task.ID != "" {
			status = p.Task.Status
		}
	}
	if status != "working" {
		t.Fatalf("the task's state on the page: %q, want working", status)
	}
	post("cancel", `{"id":"t1"}`)
	select {
	case r := <-result:
		if r["cancelled"] != true {
			t.Errorf("after Cancel the call answered %v", r)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Cancel did not end the task's call")
	}
}

// startWeb runs mcpc web over the demo server until the test ends, and
// returns its page's URL and a poster of the page's API requests.
func startWeb(t *testing.T) (string, func(path, body string) map[string]any) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	seen := make(chan struct{})
	stdout := &watchWriter{want: "\n", seen: seen}
	var stderr syncBuffer
	c := &cli{dir: demoDir(t), serve: demoInProcess(t), stdin: strings.NewReader(""), stdout: stdout, stderr: &stderr}
	done := make(chan int, 1)
	go func() { done <- c.run(ctx, []string{"--server", "demo", "web"}) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-seen:
	case code := <-done:
		done <- code
		t.Fatalf("mcpc web ended with %d:\n%s", code, stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("no URL printed")
	}
	page := strings.TrimSpace(stdout.String())
	u, _ := url.Parse(page)
	return page, func(path, body string) map[string]any {
		req, _ := http.NewRequest("POST", page+"api/"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://"+u.Host)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return nil
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
}
