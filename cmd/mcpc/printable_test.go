package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"
)

// hostileText has what a terminal acts on: escape sequences that clear the
// screen, set the title and color, a carriage return that overwrites the
// line, a C1 CSI, a bidirectional override, a bell.
const hostileText = "before\x1b[2J\x1b]0;owned\x07\x1b[31mred\rOVERWRITE\u009b2J\u202eevil\u202c after"

// checkPrintable fails if out holds a character a terminal acts on (but
// newline and tab).
func checkPrintable(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == unicode.ReplacementChar) {
			t.Errorf("%s holds %U:\n%q", what, r, out)
			return
		}
	}
}

// A tool's output is printed with its control characters escaped, and
// with --json as JSON that still decodes to the text the tool returned.
func TestToolOutputReachesTheTerminalEscaped(t *testing.T) {
	args, _ := json.Marshal(map[string]string{"text": hostileText})
	r := runIn(t, demoDir(t), "", "--server", "demo", "call", "echo", string(args))
	r.want(t, 0)
	checkPrintable(t, "stdout", r.stdout)
	if !strings.Contains(r.stdout, `before\x1b[2J\x1b]0;owned\x07`) || !strings.Contains(r.stdout, `\u202eevil`) {
		t.Errorf("the output does not show the escapes: %q", r.stdout)
	}

	r = runIn(t, demoDir(t), "", "--json", "--server", "demo", "call", "echo", string(args))
	r.want(t, 0)
	checkPrintable(t, "stdout with --json", r.stdout)
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	r.decode(t, &res)
	if len(res.Content) != 1 || res.Content[0].Text != hostileText {
		t.Errorf("--json decodes to %q, want %q", res.Content, hostileText)
	}
}

// A server's instructions are quoted escaped, each line bounded.
func TestInstructionsQuotedEscapedAndBounded(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 5000)
	writeConfig(t, dir, ".mcp.json", map[string]any{"demo": demoEntry(t, "-instructions", hostileText+"\n"+long)})
	r := runIn(t, dir, "", "info")
	r.want(t, 0)
	checkPrintable(t, "stdout", r.stdout)
	for _, line := range strings.Split(r.stdout, "\n") {
		if len(line) > maxQuotedLine+10 {
			t.Errorf("a quoted line of %d bytes", len(line))
		}
	}
}

// An HTTP server's error body reaches stderr escaped and bounded.
func TestHTTPErrorBodyReachesStderrEscaped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte(hostileText + strings.Repeat(" more", 10000)))
	}))
	defer srv.Close()
	r := runIn(t, t.TempDir(), "", "--url", srv.URL+"/mcp", "tools")
	if r.code == 0 {
		t.Fatalf("no failure: %+v", r)
	}
	checkPrintable(t, "stderr", r.stderr)
	checkPrintable(t, "stdout", r.stdout)
	if len(r.stderr) > 2*maxErrorLine {
		t.Errorf("stderr is %d bytes", len(r.stderr))
	}
	if !strings.Contains(r.stderr+r.stdout, `\x1b[2J`) {
		t.Errorf("the body is not shown escaped: %q %q", r.stdout, r.stderr)
	}
}
