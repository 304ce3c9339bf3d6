package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/mcpclient/skill"
	"github.com/plainmcp/plainmcp/mcpclient/task"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// exitCode reads the kind of an error from its types and sentinels, also
// wrapped and joined, and an interrupt wins over every kind.
func TestExitCode(t *testing.T) {
	unavailable := serverError(toolreg.ServerStatus{Name: "x", State: toolreg.StateFailed, Err: fmt.Errorf("x: %w", toolreg.ErrUnavailable)})
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, exitOK},
		{"plain", errors.New("server answered -32602"), exitFailure},
		{"usage", usagef("no command given"), exitUsage},
		{"config", configf("no MCP servers configured"), exitConfig},
		{"config file", fmt.Errorf("loading: %w", &mcpjson.ConfigError{}), exitConfig},
		{"disabled", serverError(toolreg.ServerStatus{Name: "off", State: toolreg.StateDisabled}), exitConfig},
		{"unavailable", unavailable, exitConnect},
		{"needs auth", fmt.Errorf("tools: %w", &toolreg.NeedsAuthError{Server: "web"}), exitConnect},
		{"step-up", &lineError{line: "403", errs: []error{errors.New("403"), errNeedsLogin}}, exitConnect},
		{"tool error", &toolreg.ToolError{Server: "s", Tool: "t", Message: "no"}, exitToolError},
		{"task failed", fmt.Errorf("call: %w", &task.Error{Err: errors.New("failed")}), exitToolError},
		{"approver", fmt.Errorf("%w: t: no", toolreg.ErrCallRefused), exitRefused},
		{"unapproved", serverError(toolreg.ServerStatus{Name: "p", State: toolreg.StateUnapproved}), exitRefused},
		{"project server", refusedError{"not approved"}, exitRefused},
		{"untrusted URL", fmt.Errorf("server %q: %w", "x", fmt.Errorf("%w: ftp://x", safeurl.ErrUnsafe)), exitRefused},
		{"skill", &skill.Error{Check: "digest"}, exitRefused},
		{"access denied", &oauth.AuthorizationError{Code: "access_denied"}, exitRefused},
		{"other authorization error", &oauth.AuthorizationError{Code: "server_error"}, exitFailure},
		{"refused over unavailable", joinLines([]error{unavailable, refusedError{"no"}}), exitRefused},
		{"an unknown name wraps the failure", &lineError{line: "no tool", errs: []error{unavailable}}, exitConnect},
	} {
		if got := exitCode(context.Background(), tc.err); got != tc.want {
			t.Errorf("%s: exitCode(%v) = %d, want %d", tc.name, tc.err, got, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := exitCode(ctx, &toolreg.ToolError{}); got != exitInterrupted {
		t.Errorf("interrupted: %d, want %d", got, exitInterrupted)
	}
}

// Every exit code is documented alike in mcpc -h, the package doc and
// the README.
func TestExitCodesDocumented(t *testing.T) {
	codes := map[int]string{exitOK: "ok", exitFailure: "any other failure", exitUsage: "usage", exitConfig: "config",
		exitConnect: "connection", exitToolError: "tool error", exitRefused: "refused", exitInterrupted: "interrupted"}
	doc, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for where, text := range map[string]string{"mcpc -h": usage, "main.go": string(doc), "README": string(readme)} {
		for code, word := range codes {
			line := regexp.MustCompile(fmt.Sprintf(`(?m)^(//\t|  |\| )%d\s*(\| )?%s`, code, regexp.QuoteMeta(word)))
			if !line.MatchString(text) {
				t.Errorf("%s does not document exit code %d (%s)", where, code, word)
			}
		}
	}
}
