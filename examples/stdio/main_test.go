package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/demoproc"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// The tests run the example against the demo server, the test binary
// itself started again (see package demoproc).
func TestMain(m *testing.M) {
	demoproc.ServeIfChild()
	os.Exit(m.Run())
}

// runDemo runs the example with flags against the demo server, which gets
// serverArgs.
func runDemo(t *testing.T, flags []string, serverArgs ...string) (code int, stdout, stderr string) {
	t.Helper()
	leakcheck.Check(t)
	args := append(append(flags, "--"), demoproc.Command(t, serverArgs...)...)
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCallAdd(t *testing.T) {
	code, out, errOut := runDemo(t, []string{"-tool", "add", "-args", `{"a":2,"b":40}`})
	if code != 0 || out != "42\n" {
		t.Fatalf("exit %d, stdout %q, want 0 and \"42\\n\"; stderr:\n%s", code, out, errOut)
	}
}

func TestFirstToolEveryPage(t *testing.T) {
	// One tool per page: the listing must follow every cursor, and the
	// default tool is the first listed (echo).
	code, out, errOut := runDemo(t, []string{"-args", `{"text":"hello"}`}, "-page-size", "1")
	if code != 0 || out != "hello\n" {
		t.Fatalf("exit %d, stdout %q, want 0 and \"hello\\n\"; stderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "offers 13 tools: echo, add,") || !strings.HasSuffix(errOut, ", research\n") {
		t.Errorf("stderr does not list all 13 tools:\n%s", errOut)
	}
}

func TestToolError(t *testing.T) {
	code, out, errOut := runDemo(t, []string{"-tool", "fail"})
	if code != 1 || !strings.Contains(out, "always fails") || !strings.Contains(errOut, "tool fail reported an error") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 1, the tool's text and a note", code, out, errOut)
	}
}

func TestUnknownTool(t *testing.T) {
	code, out, errOut := runDemo(t, []string{"-tool", "nope"})
	if code != 1 || out != "" || !strings.Contains(errOut, `unknown tool "nope"`) {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 1 and the server's error", code, out, errOut)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{},                                   // no command
		{"-args", "[1]", "--", "server"},     // arguments not an object
		{"-args", "{", "--", "server"},       // not JSON
		{"-bogus", "--", "server"},           // unknown flag
		{"-tool", "add", "-args", `{"a":1}`}, // no command after the flags
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != 2 || out.Len() != 0 || errOut.Len() == 0 {
			t.Errorf("run(%q): exit %d, stdout %q, stderr %q; want 2, nothing, a message", args, code, out.String(), errOut.String())
		}
	}
}

func TestNoSuchCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"--", "./no-such-server"}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "no-such-server") {
		t.Fatalf("exit %d, stderr %q; want 1 and the command named", code, errOut.String())
	}
}
