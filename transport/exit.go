package transport

import (
	"fmt"
	"os/exec"
	"strings"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/internal/safe"
)

// stderrInError bounds how much of the stderr tail an ExitError's message
// quotes: enough for the last lines of a stack trace.
const stderrInError = 2 << 10

// ExitError reports that a stdio server exited. Read and Write return it,
// wrapped, once the server is gone; use errors.As to get at it. Read does
// so whatever the exit status: a server that exits while its client is
// connected has broken the stream, and the status and stderr say why.
type ExitError struct {
	Code   int    // the exit status; -1 when a signal ended the server
	Signal int    // the number of the signal that ended the server, or 0
	Stderr string // the end of the server's stderr, up to StdioConfig.StderrTail bytes

	err error // a failure to wait for the process, when there was one
}

func newExitError(waitErr error, stderr string) *ExitError {
	e := &ExitError{Stderr: stderr}
	var ee *exec.ExitError
	switch {
	case errtype.As(waitErr, &ee):
		e.Code = ee.ExitCode()
		e.Signal = signalOf(ee.ProcessState)
	case waitErr != nil:
		e.Code, e.err = -1, waitErr
	}
	return e
}

// Error says how the server ended and quotes the last lines of its
// stderr, which usually say why, with control characters escaped.
func (e *ExitError) Error() string {
	var b strings.Builder
	switch {
	case e.err != nil:
		fmt.Fprintf(&b, "server lost: %v", e.err)
	case e.Signal != 0:
		fmt.Fprintf(&b, "server killed by signal %d%s", e.Signal, signalName(e.Signal))
	default:
		fmt.Fprintf(&b, "server exited with status %d", e.Code)
	}
	if t := lastLines(e.Stderr, stderrInError); t != "" {
		// Error text ends up on terminals: what the server printed is
		// quoted inert, its lines kept.
		b.WriteString(": ")
		b.WriteString(safe.Printable(t))
	}
	return b.String()
}

// Unwrap returns the error from waiting for the process, if there was one.
func (e *ExitError) Unwrap() error { return e.err }

// lastLines returns the end of s, trimmed, at most about n bytes long and,
// when cut, marked so and starting at a line boundary.
func lastLines(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = s[len(s)-n:]
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
		s = "…" + s
	}
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError { // an invalid byte, as strings.Map hands it on
			return '?'
		}
		return r
	}, s)
}
