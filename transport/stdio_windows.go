//go:build windows

package transport

import (
	"os"
	"strings"

	"github.com/plainmcp/plainmcp/internal/childproc"
)

// terminate kills the server and the processes it started. Windows has no
// SIGTERM that a console program without a console could receive, so the
// polite step is skipped and the tree is killed.
func terminate(p *os.Process) { childproc.Kill(p) }

// kill kills the server.
func kill(p *os.Process) { p.Kill() }

// groupAlive reports false: without process groups there is nothing left to
// look for once the server is gone.
func groupAlive(p *os.Process) bool { return false }

// signalOf returns 0: Windows processes do not end by signals.
func signalOf(ps *os.ProcessState) int { return 0 }

func signalName(sig int) string { return "" }

// safeEnv lists the variables passed on to a server by default.
func safeEnv() []string {
	return []string{
		"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "LC_ALL",
		"APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES", "SYSTEMROOT", "SYSTEMDRIVE",
		"TEMP", "TMP", "USERNAME", "USERPROFILE", "PATHEXT", "COMSPEC",
	}
}

// sameEnvName compares names as Windows does, ignoring case.
func sameEnvName(a, b string) bool { return strings.EqualFold(a, b) }
