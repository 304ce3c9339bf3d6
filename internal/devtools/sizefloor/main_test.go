package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/demoproc"
)

// The tests run the floor client against the demo server, the test
// binary itself started again (see package demoproc).
func TestMain(m *testing.M) {
	demoproc.ServeIfChild()
	os.Exit(m.Run())
}

// runDemo runs the floor client with flags against the demo server, which
// gets serverArgs.
func runDemo(t *testing.T, flags []string, serverArgs ...string) (code int, stdout, stderr string) {
	t.Helper()
	args := append(append(flags, "--"), demoproc.Command(t, serverArgs...)...)
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCallAdd(t *testing.T) {
	code, out, errOut := runDemo(t, []string{"-tool", "add", "-args", `{"a":2,"b":40}`})
	if code != 0 || out != "42\n" {
		t.Fatalf("exit %d, stdout %q, want 0 and \"42\\n\"; stderr:\n%s", code, out, errOut)
	}
}

func TestFirstToolEveryPage(t *testing.T) {
	code, out, errOut := runDemo(t, []string{"-args", `{"text":"hello"}`}, "-page-size", "1")
	if code != 0 || out != "hello\n" {
		t.Fatalf("exit %d, stdout %q, want 0 and \"hello\\n\"; stderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "offers 13 tools: echo, add,") || !strings.HasSuffix(errOut, ", research\n") {
		t.Errorf("stderr does not list all 13 tools:\n%s", errOut)
	}
}

func TestErrors(t *testing.T) {
	code, out, errOut := runDemo(t, []string{"-tool", "fail"})
	if code != 1 || !strings.Contains(out, "always fails") || !strings.Contains(errOut, "reported an error") {
		t.Errorf("tool error: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runDemo(t, []string{"-tool", "nope"})
	if code != 1 || out != "" || !strings.Contains(errOut, `unknown tool "nope"`) {
		t.Errorf("unknown tool: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	var o, e bytes.Buffer
	if code := run([]string{"-args", "[1]", "--", "server"}, &o, &e); code != 2 {
		t.Errorf("arguments not an object: exit %d, want 2", code)
	}
}
