package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/mcpclient/skill"
	"github.com/plainmcp/plainmcp/mcpclient/task"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// Exit codes, one per kind of failure a script may want to tell apart;
// the package doc, mcpc -h and the README list them. Usage is 2 and an
// interrupt 130, as shells expect; 1 is every failure without a code of
// its own (a server's error answer, an unknown name, a file not written).
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitConfig      = 3   // a config file is wrong, or names no usable server
	exitConnect     = 4   // a server did not start, did not answer, was lost, or needs mcpc login (or more scope)
	exitToolError   = 5   // the tool answered with isError, or its task failed
	exitRefused     = 6   // consent or approval withheld, an untrusted URL, a skill failing its checks
	exitInterrupted = 130 // 128 + SIGINT, as shells report it
	exitHangup      = 129 // 128 + SIGHUP
	exitTerminated  = 143 // 128 + SIGTERM
)

// signalCause is the cause of a run's context cancelled by one of
// shutdownSignals.
type signalCause struct{ sig os.Signal }

func (c signalCause) Error() string { return "interrupted by " + c.sig.String() }

// interruptedCode is the exit code of a run cancelled under ctx: 128 +
// the signal's number, as shells report a death by that signal; 130, as
// for Ctrl-C, when no signal is known (a test's cancel).
func interruptedCode(ctx context.Context) int {
	var sc signalCause
	if errors.As(context.Cause(ctx), &sc) {
		switch sc.sig {
		case syscall.SIGHUP:
			return exitHangup
		case syscall.SIGTERM:
			return exitTerminated
		}
	}
	return exitInterrupted
}

// exitCode is the exit code of a command that returned err, read from the
// error's types and sentinels (errors.Is and As), never from its text. The
// order matters where one error is of two kinds: an interrupt wins, then
// a refusal (a connection that failed on an untrusted URL was refused),
// then the tool's own failure, the config, and the connection.
func exitCode(ctx context.Context, err error) int {
	var (
		usage   usageError
		config  configError
		refused refusedError
		tool    *toolreg.ToolError
		failed  *task.Error
		refusal *skill.Error
		auth    *toolreg.NeedsAuthError
		denied  *oauth.AuthorizationError
	)
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil:
		return interruptedCode(ctx)
	case errors.As(err, &usage):
		return exitUsage
	case errors.As(err, &refused), errors.Is(err, toolreg.ErrCallRefused), errors.Is(err, toolreg.ErrUnapproved),
		errors.Is(err, safeurl.ErrUnsafe), errors.As(err, &refusal),
		errors.As(err, &denied) && denied.Code == "access_denied":
		return exitRefused
	case errors.As(err, &tool), errors.As(err, &failed):
		return exitToolError
	case errors.As(err, &config), errors.Is(err, mcpjson.ErrConfig), errors.Is(err, toolreg.ErrDisabled):
		return exitConfig
	case errors.Is(err, toolreg.ErrUnavailable), errors.As(err, &auth), errors.Is(err, errNeedsLogin):
		return exitConnect
	}
	return exitFailure
}

// errNeedsLogin marks a failure that a login would end: a call that
// needs more scope than the token has, with no one at a terminal to
// authorize it.
var errNeedsLogin = errors.New("needs mcpc login")

// configError is a config that mcpc cannot use: a file that does not
// parse, an entry left out that was the one asked for, no server at all.
type configError struct{ msg string }

func (e configError) Error() string { return e.msg }

func configf(format string, args ...any) error {
	return configError{fmt.Sprintf(format, args...)}
}

// refusedError is a refusal of mcpc's own: a project server the user has
// not approved.
type refusedError struct{ msg string }

func (e refusedError) Error() string { return e.msg }

// serverError is why a server that is not connected takes no part, in
// errorLine's one line, with the cause (or the state's sentinel) behind
// it for exitCode.
func serverError(s toolreg.ServerStatus) error {
	cause := s.Err
	switch {
	case cause != nil:
	case s.State == toolreg.StateDisabled:
		cause = toolreg.ErrDisabled
	case s.State == toolreg.StateUnapproved:
		cause = toolreg.ErrUnapproved
	default:
		cause = toolreg.ErrUnavailable
	}
	return &lineError{line: errorLine(s), errs: []error{cause}}
}

// lineError is one line for the user over the errors it stands for.
type lineError struct {
	line string
	errs []error
}

func (e *lineError) Error() string   { return e.line }
func (e *lineError) Unwrap() []error { return e.errs }

// joinLines is the failures of several servers as one line, "a; b",
// each still reachable by errors.Is and As; nil if there are none.
func joinLines(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	lines := make([]string, len(errs))
	for i, err := range errs {
		lines[i] = oneLine(err.Error())
	}
	return &lineError{line: strings.Join(lines, "; "), errs: errs}
}
