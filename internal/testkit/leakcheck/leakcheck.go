// Package leakcheck is a test helper shared by every package of plainmcp:
// it fails a test whose goroutines outlive it. It imports the standard
// library only, so even the lowest layer's tests may use it.
package leakcheck

import (
	"runtime"
	"testing"
	"time"
)

// Check records how many goroutines run now and, when the test ends,
// fails it if more are still running two seconds after its other cleanups
// (goroutines take a moment to notice a Close), printing every stack.
// Call it first in a test, so that its cleanup runs last.
func Check(t testing.TB) {
	t.Helper()
	base := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(2 * time.Second)
		for runtime.NumGoroutine() > base {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				n := runtime.Stack(buf, true)
				t.Errorf("goroutines: %d at start, %d now:\n%s", base, runtime.NumGoroutine(), buf[:n])
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}
