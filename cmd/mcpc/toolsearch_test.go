package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// tools --search ranks the tools by the query, for people and, with
// each score's reasons, for scripts; select: picks by name.
func TestToolsSearch(t *testing.T) {
	dir := demoDir(t)
	r := runIn(t, dir, "", "--server", "demo", "tools", "--search", "sum two numbers")
	r.want(t, exitOK)
	if !strings.HasPrefix(r.stdout, " 1. mcp__demo__add  ") {
		t.Errorf("stdout %q: want mcp__demo__add first", r.stdout)
	}
	r = runIn(t, dir, "", "--server", "demo", "--json", "tools", "--search", "repeat my text")
	r.want(t, exitOK)
	var found []struct {
		Name    string  `json:"name"`
		Score   float64 `json:"score"`
		Reasons []struct {
			Word, Match, Field, Kind string
		} `json:"reasons"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &found); err != nil || len(found) == 0 {
		t.Fatalf("stdout %q: %v", r.stdout, err)
	}
	if f := found[0]; f.Name != "mcp__demo__echo" || f.Score <= 0 || len(f.Reasons) == 0 || f.Reasons[0].Field == "" {
		t.Errorf("first found %+v, want mcp__demo__echo with a score and its reasons", f)
	}
	r = runIn(t, dir, "", "--server", "demo", "tools", "--search", "select:mcp__demo__fail,mcp__demo__echo")
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, "1. mcp__demo__fail") || !strings.Contains(r.stdout, "2. mcp__demo__echo") {
		t.Errorf("select: stdout %q", r.stdout)
	}
	r = runIn(t, dir, "", "--server", "demo", "tools", "--search", "qqqzzz")
	r.want(t, exitOK)
	if r.stdout != "no tool matches\n" {
		t.Errorf("no match: stdout %q", r.stdout)
	}
}

// ask --tool-search says how many definitions it offered and deferred,
// and sends the model search_tools alone.
func TestAskToolSearch(t *testing.T) {
	dir := demoDir(t)
	f := newBodyModel(t,
		`{"model":"m","choices":[{"message":{"tool_calls":[{"id":"c1","type":"function","function":{"name":"search_tools","arguments":"{\"query\":\"echo text\"}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"model":"m","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`)
	r := runAsk(t, dir, f, false, "", "--tool-search", "on", "--no-stream", "Hi")
	r.want(t, exitOK)
	for _, want := range []string{
		"tool search: 1 tool definition offered (search_tools), 13 deferred",
		"tool search: the last turn offered 5 tool definitions (search_tools and the tools found), deferred 9",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	var req struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	json.Unmarshal([]byte(f.requests()[0]), &req)
	if len(req.Tools) != 1 || req.Tools[0].Function.Name != "search_tools" {
		t.Errorf("first request's tools %+v, want search_tools alone", req.Tools)
	}
	runAsk(t, dir, f, false, "", "--tool-search", "maybe", "Hi").want(t, exitUsage, "--tool-search")
	r = runAsk(t, dir, f, false, "", "--tool-search", "off", "--no-stream", "Hi")
	if !strings.Contains(r.stderr, "tools offered (13)") {
		t.Errorf("off: stderr %q", r.stderr)
	}
}
