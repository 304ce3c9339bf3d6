//go:build go1.25

package streamhttp

import (
	"testing"
	"testing/synctest"
)

// inBubble runs a test that waits on time (a Retry-After, a backoff) in
// a synctest bubble, against a server reached in memory (newMemMCPHTTP):
// its waits pass on the bubble's clock, at once.
func inBubble(t *testing.T, f func(*testing.T)) { synctest.Test(t, f) }
