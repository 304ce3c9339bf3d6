//go:build go1.25

package bridge

import (
	"testing"
	"testing/synctest"
)

// inBubble runs a test whose provider asks it to retry in a synctest
// bubble, over the fake's in-memory client: the backoff and Retry-After
// waits pass on the bubble's clock, at once.
func inBubble(t *testing.T, f func(*testing.T)) { synctest.Test(t, f) }
