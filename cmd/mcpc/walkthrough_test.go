package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// walkthroughPage is the walkthrough whose traced session this test keeps
// true.
const walkthroughPage = "../../docs/walkthrough.md"

// The session's block in the page lies between these two lines: a fenced
// block whose first line is "$ " and the command, then the lines it prints,
// "[server] -> frame" and "[server] <- frame" on stderr, anything else on
// stdout.
const (
	walkthroughBegin = "<!-- trace:begin -->"
	walkthroughEnd   = "<!-- trace:end -->"
)

// TestWalkthroughTraceIsTrue runs the command the walkthrough traces, in
// process, against the demo servers of demoDir (this test binary serving
// the demo, configured as demo and pages like the repository's .mcp.json),
// and checks that the page shows exactly the trace and output it produces,
// after the normalizations the page documents (normalizeWalkthroughTrace).
func TestWalkthroughTraceIsTrue(t *testing.T) {
	leakcheck.Check(t)
	page, err := os.ReadFile(walkthroughPage)
	if err != nil {
		t.Fatal(err)
	}
	command, wantTrace, wantOut := walkthroughSession(t, string(page))
	words, err := splitWords(command)
	if err != nil {
		t.Fatalf("the command in %s: %v", walkthroughPage, err)
	}
	if len(words) < 2 || words[0] != "bin/mcpc" {
		t.Fatalf("the command in %s should start with bin/mcpc, as make build names it: %q", walkthroughPage, command)
	}

	r := runIn(t, demoDir(t), "", words[1:]...)
	r.want(t, exitOK)
	var gotTrace []string
	for _, line := range pageLines(r.stderr) {
		if !isTracedFrame(line) {
			t.Errorf("stderr holds a line that is not a trace line: %q", line)
			continue
		}
		gotTrace = append(gotTrace, line)
	}

	if diff := cmp.Diff(normalizeWalkthroughTrace(t, wantTrace), normalizeWalkthroughTrace(t, gotTrace)); diff != "" {
		paste := make([]string, len(gotTrace))
		for i, line := range gotTrace {
			paste[i] = elideListing(t, line)
		}
		t.Errorf("the trace in %s is not what %q prints (-page +real):\n%s\nthe real trace, listing elided, to paste into the page:\n%s",
			walkthroughPage, command, diff, strings.Join(paste, "\n"))
	}
	if diff := cmp.Diff(wantOut, pageLines(r.stdout)); diff != "" {
		t.Errorf("the output in %s is not what %q prints (-page +real):\n%s", walkthroughPage, command, diff)
	}
}

// walkthroughSession finds the session block of the page and splits it
// into the command, the trace lines and the output lines.
func walkthroughSession(t *testing.T, page string) (command string, trace, out []string) {
	t.Helper()
	_, rest, ok := strings.Cut(page, walkthroughBegin)
	if !ok {
		t.Fatalf("%s has no %s line", walkthroughPage, walkthroughBegin)
	}
	block, _, ok := strings.Cut(rest, walkthroughEnd)
	if !ok {
		t.Fatalf("%s has no %s line after %s", walkthroughPage, walkthroughEnd, walkthroughBegin)
	}
	var body []string
	for _, line := range pageLines(block) {
		if !strings.HasPrefix(line, "```") { // the fences
			body = append(body, line)
		}
	}
	if len(body) == 0 || !strings.HasPrefix(body[0], "$ ") {
		t.Fatalf("the block between %s and %s in %s should start with \"$ \" and the command", walkthroughBegin, walkthroughEnd, walkthroughPage)
	}
	for _, line := range body[1:] {
		if isTracedFrame(line) {
			trace = append(trace, line)
		} else {
			out = append(out, line)
		}
	}
	if len(trace) == 0 {
		t.Fatalf("the block in %s shows no trace lines", walkthroughPage)
	}
	return strings.TrimPrefix(body[0], "$ "), trace, out
}

// pageLines splits text into its non-empty lines.
func pageLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimRight(line, "\r"); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// tracedFrame is a line of --trace: "[server] -> frame" or "[server] <- frame".
var tracedFrame = regexp.MustCompile(`^\[[^\]]+\] (->|<-) `)

func isTracedFrame(line string) bool { return tracedFrame.MatchString(line) }

// The two normalizations the page documents.
var (
	// traceImplVersion is the release version in clientInfo (in
	// server/discover's io.modelcontextprotocol/clientInfo and in
	// initialize's clientInfo) and in serverInfo: it changes with every
	// release, and the page need not. The protocol versions are not
	// normalized: they are what the page explains.
	traceImplVersion = regexp.MustCompile(`(Info":\{[^{}]*"version":")[^"]*(")`)

	// traceToolListing is the demo server's tools/list response, which the
	// page shortens to "tools":[…]. The real listing must be an array of
	// tools that holds the tool the page calls (see checkElidedListing).
	traceToolListing = regexp.MustCompile(`^(\[[^\]]+\] <- \{"jsonrpc":"2\.0","id":\d+,"result":\{"tools":)(\[.*\])(\}\})$`)
)

// traceElided is what the page shows in place of the tool listing.
const traceElided = "[…]"

// normalizeWalkthroughTrace applies the page's normalizations to trace
// lines, in a new slice.
func normalizeWalkthroughTrace(t *testing.T, trace []string) []string {
	t.Helper()
	out := make([]string, len(trace))
	for i, line := range trace {
		out[i] = traceImplVersion.ReplaceAllString(elideListing(t, line), "${1}VERSION${2}")
	}
	return out
}

// elideListing shortens a tools/list response as the page does, after
// checking the listing; other lines, and a listing already elided, are
// returned as they are.
func elideListing(t *testing.T, line string) string {
	t.Helper()
	m := traceToolListing.FindStringSubmatch(line)
	if m == nil || m[2] == traceElided {
		return line
	}
	checkElidedListing(t, m[2])
	return m[1] + traceElided + m[3]
}

// checkElidedListing checks that what the page elides is a real listing that
// offers the tool the walkthrough calls.
func checkElidedListing(t *testing.T, listing string) {
	t.Helper()
	var tools []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(listing), &tools); err != nil {
		t.Errorf("the tools/list result is not an array of tools: %v", err)
		return
	}
	for _, tool := range tools {
		if tool.Name == "add" {
			return
		}
	}
	t.Errorf("the tools/list result offers no tool add: %s", listing)
}
