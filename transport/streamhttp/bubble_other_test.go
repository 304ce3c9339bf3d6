//go:build !go1.25

package streamhttp

import "testing"

// inBubble runs f as it is where testing/synctest is missing: its waits
// are real.
func inBubble(t *testing.T, f func(*testing.T)) { f(t) }
