// Package childexit ends a test binary that a test started again as a
// child process (a stdio server, say) at once.
//
// A test binary built with -race sleeps a second as it exits (the race
// detector's atexit_sleep_ms, there so that a last report reaches stderr)
// unless GORACE says otherwise, and a child started with a small safe
// environment never hears GORACE. Every test that waits for its child's
// exit would pay that second. Exit leaves without the sleep. A data race
// in the child is still reported on its stderr when it happens; only the
// exit status that would have said so (66) is lost.
package childexit

import "syscall"

// Exit ends the process with code, skipping the exit hooks of the runtime
// (the race detector's, among them) and deferred functions alike.
func Exit(code int) {
	syscall.Exit(code)
}
