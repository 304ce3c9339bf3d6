package transport

import (
	"strings"
	"testing"
	"unicode"
)

// A server's stderr reaches the exit error's text inert: its last lines
// are quoted with the characters a terminal would act on escaped (ESC,
// CR, BEL, bidi overrides), and Stderr keeps them as they came.
func TestExitErrorQuotesStderrPrintably(t *testing.T) {
	stderr := "starting\n\x1b]0;owned\x07fatal: \x1b[31mno config\x1b[0m\rhidden\u202e\n"
	e := &ExitError{Code: 1, Stderr: stderr}
	text := e.Error()
	if i := strings.IndexFunc(text, func(r rune) bool {
		return (unicode.IsControl(r) && r != '\n' && r != '\t') || r == '\u202e'
	}); i >= 0 {
		t.Errorf("error text %q has a control character at %d", text, i)
	}
	for _, want := range []string{"status 1", "starting\n", `\x1b]0;owned\x07fatal`, `no config\x1b[0m\x0dhidden`} {
		if !strings.Contains(text, want) {
			t.Errorf("error text %q does not contain %q", text, want)
		}
	}
	if e.Stderr != stderr {
		t.Errorf("Stderr = %q, want it as it came", e.Stderr)
	}
}
