//go:build !unix && !windows

package transport

import (
	"os"
)

// On systems that are neither Unix nor Windows the server alone is
// stopped, by killing it.

func terminate(p *os.Process)          { p.Kill() }
func kill(p *os.Process)               { p.Kill() }
func groupAlive(p *os.Process) bool    { return false }
func signalOf(ps *os.ProcessState) int { return 0 }
func signalName(sig int) string        { return "" }
func safeEnv() []string                { return []string{"PATH", "HOME", "USER", "LANG"} }
func sameEnvName(a, b string) bool     { return a == b }
