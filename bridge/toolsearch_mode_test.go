package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/toolreg"
)

// smallRegistry is a fake server with three tools, each answering "ran
// <tool>".
func smallRegistry(t *testing.T) (*toolreg.Registry, *fakeServer) {
	t.Helper()
	var tools []fakeTool
	for _, d := range []string{
		`{"name":"create_issue","description":"Create a new issue in a repository","inputSchema":{"type":"object","properties":{"title":{"type":"string"}}}}`,
		`{"name":"list_files","description":"List the files of a directory","inputSchema":{"type":"object"}}`,
		`{"name":"send_email","description":"Send an email message","inputSchema":{"type":"object"}}`,
	} {
		var n struct{ Name string }
		json.Unmarshal([]byte(d), &n)
		tools = append(tools, fakeTool{def: d, call: func(context.Context, json.RawMessage) string { return textResult("ran " + n.Name) }})
	}
	return newFakeServer(t, &toolreg.Options{}, tools...)
}

func approveAll(context.Context, toolreg.Call) error { return nil }

func toolNamesOf(t *testing.T, body []byte) []string {
	t.Helper()
	var out []string
	for _, raw := range requestTools(t, body) {
		var tool struct {
			Function struct{ Name string } `json:"function"`
		}
		json.Unmarshal(raw, &tool)
		out = append(out, tool.Function.Name)
	}
	return out
}

func TestToolSearchModes(t *testing.T) {
	reg, _ := smallRegistry(t)
	all, _ := reg.ModelTools(context.Background())
	for _, tc := range []struct {
		opts RunOptions
		want bool
	}{
		{RunOptions{}, false},                                          // three small definitions, far under 10 % of 128k tokens
		{RunOptions{ToolSearch: "on"}, true},                           // always
		{RunOptions{ToolSearch: "OFF"}, false},                         // never
		{RunOptions{ContextWindow: 1000, ToolSearchShare: 0.01}, true}, // 40 bytes of definitions at most
		{RunOptions{ToolSearch: "sometimes"}, false},
	} {
		if got := tc.opts.searchOn(all); got != tc.want {
			t.Errorf("searchOn(%+v) = %v, want %v", tc.opts, got, tc.want)
		}
	}
	f := newFake(t, answer("hi"))
	if _, err := Run(context.Background(), newOpenAI(f), reg, "q", &RunOptions{ToolSearch: "sometimes"}); err == nil || len(f.requests()) != 0 {
		t.Errorf("an unknown mode: err %v after %d requests, want an error before any", err, len(f.requests()))
	}
}

// TestToolSearchLoadsCalledTools checks that a tool called by name before
// it was found runs (with consent) and is offered from then on, after
// the always-loaded ones, and that a conversation taken up again offers
// the same array.
func TestToolSearchLoadsCalledTools(t *testing.T) {
	reg, srv := smallRegistry(t)
	f := newFake(t,
		toolCalls([3]string{"c1", "mcp__fake__create_issue", `{"title":"x"}`}),
		toolCalls([3]string{"c2", searchToolName, `{"query":"mail someone"}`}),
		answer("done"))
	opts := &RunOptions{ToolSearch: "on", Approve: approveAll, AlwaysLoaded: []string{"mcp__fake__list_files", "mcp__fake__nope"}}
	tr, err := Run(context.Background(), newOpenAI(f), reg, "go", opts)
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	want := [][]string{
		{searchToolName, "mcp__fake__list_files"},
		{searchToolName, "mcp__fake__list_files", "mcp__fake__create_issue"},
		{searchToolName, "mcp__fake__list_files", "mcp__fake__create_issue", "mcp__fake__send_email"},
	}
	for i, w := range want {
		if got := toolNamesOf(t, reqs[i].body); strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("request %d offers %q, want %q", i+1, got, w)
		}
	}
	if srv.calls.Load() != 1 || tr.Deferred != 0 {
		t.Errorf("%d calls ran, %d deferred; want 1 and 0", srv.calls.Load(), tr.Deferred)
	}
	// Taken up again, the conversation offers what it had loaded, in
	// the same order.
	f2 := newFake(t, answer("again"))
	opts.History = tr.Messages
	opts.ToolSearch = "" // auto: the history searched, so it searches again
	if _, err := Run(context.Background(), newOpenAI(f2), reg, "more", opts); err != nil {
		t.Fatal(err)
	}
	if got := toolNamesOf(t, f2.requests()[0].body); strings.Join(got, " ") != strings.Join(want[2], " ") {
		t.Errorf("the conversation taken up again offers %q, want %q", got, want[2])
	}
}

// TestToolSearchKeepsConsentAndBounds checks that a found tool needs
// consent as any other, that a tool the host does not offer is not
// found, and that bad search input is the model's error, not Run's.
func TestToolSearchKeepsConsentAndBounds(t *testing.T) {
	reg, srv := smallRegistry(t)
	f := newFake(t,
		toolCalls([3]string{"c1", searchToolName, `{"query":"send an email"}`}, [3]string{"c2", searchToolName, `{"limit":3}`},
			[3]string{"c3", "mcp__fake__send_email", `{}`}),
		answer("done"))
	refused := errors.New("no")
	opts := &RunOptions{ToolSearch: "on", Tools: []string{"mcp__fake__create_issue", "mcp__fake__send_email"},
		Approve: func(context.Context, toolreg.Call) error { return refused }}
	if _, err := Run(context.Background(), newOpenAI(f), reg, "go", opts); err != nil {
		t.Fatal(err)
	}
	results := toolMessages(t, f.requests()[1].body)
	if !strings.Contains(results["c1"], "mcp__fake__send_email") || strings.Contains(results["c1"], "list_files") {
		t.Errorf("search result %q", results["c1"])
	}
	if !strings.Contains(results["c2"], "query") || !strings.Contains(results["c3"], "not approved") || srv.calls.Load() != 0 {
		t.Errorf("results %q; %d calls ran", results, srv.calls.Load())
	}
	f = newFake(t, toolCalls([3]string{"c1", searchToolName, `{"query":"list the files"}`}), answer("done"))
	opts.Tools = []string{"mcp__fake__create_issue"}
	if _, err := Run(context.Background(), newOpenAI(f), reg, "go", opts); err != nil {
		t.Fatal(err)
	}
	if res := toolMessages(t, f.requests()[1].body)["c1"]; strings.Contains(res, "list_files") {
		t.Errorf("a tool the host does not offer was found: %q", res)
	}
}

// TestToolSearchCallsCountAgainstTheTurnBound checks that searches count
// as calls against MaxCallsPerTurn: a call after the bound does not run.
func TestToolSearchCallsCountAgainstTheTurnBound(t *testing.T) {
	reg, srv := smallRegistry(t)
	f := newFake(t,
		toolCalls([3]string{"c1", searchToolName, `{"query":"issue"}`}, [3]string{"c2", searchToolName, `{"query":"mail"}`},
			[3]string{"c3", "mcp__fake__send_email", `{}`}),
		answer("done"))
	opts := &RunOptions{ToolSearch: "on", Approve: approveAll, MaxCallsPerTurn: 2}
	if _, err := Run(context.Background(), newOpenAI(f), reg, "go", opts); err != nil {
		t.Fatal(err)
	}
	results := toolMessages(t, f.requests()[1].body)
	if !strings.Contains(results["c3"], "at most 2 tool calls") || srv.calls.Load() != 0 || !strings.Contains(results["c2"], "send_email") {
		t.Errorf("results %q; %d calls ran", results, srv.calls.Load())
	}
}

// TestToolSearchReadsAnyNumberAsTheLimit checks that a limit written as
// JSON allows (5.0, 1e9, a negative) is read, cut to its bounds, rather
// than refused as bad input.
func TestToolSearchReadsAnyNumberAsTheLimit(t *testing.T) {
	reg, _ := smallRegistry(t)
	f := newFake(t,
		toolCalls([3]string{"c1", searchToolName, `{"query":"send an email","limit":1.0}`},
			[3]string{"c2", searchToolName, `{"query":"send an email","limit":1e9}`},
			[3]string{"c3", searchToolName, `{"query":"send an email","limit":-2}`},
			[3]string{"c4", searchToolName, `{"query":"send an email","limit":"x"}`}),
		answer("done"))
	if _, err := Run(context.Background(), newOpenAI(f), reg, "go", &RunOptions{ToolSearch: "on", Approve: approveAll}); err != nil {
		t.Fatal(err)
	}
	results := toolMessages(t, f.requests()[1].body)
	if !strings.HasPrefix(results["c1"], "1 tools found") {
		t.Errorf("limit 1.0: %q", results["c1"])
	}
	for _, id := range []string{"c2", "c3"} {
		if !strings.Contains(results[id], "tools found") {
			t.Errorf("%s: %q", id, results[id])
		}
	}
	if !strings.Contains(results["c4"], `a number "limit"`) {
		t.Errorf("a limit that is no number: %q", results["c4"])
	}
}
