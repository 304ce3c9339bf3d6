package transport

import (
	"context"
	"fmt"
	"time"
)

// killWait bounds the wait for the server to die after it was killed, in
// case the system cannot make it (a process stuck in the kernel).
const killWait = time.Second

// pollInterval is how often Close looks whether a process group is empty.
const pollInterval = 20 * time.Millisecond

// Close shuts the server down the way the MCP specification asks: it closes
// the server's stdin, waits up to CloseDelay for it to exit, sends SIGTERM,
// waits up to CloseDelay again, then kills it. The signals go to the
// server's whole process group, so the processes a wrapper such as npx
// started go too. (Windows has no SIGTERM; there the process tree is
// killed at the second step.)
//
// Close unblocks a Read or Write in progress, and later ones return an
// error wrapping jsonrpc.ErrClosed. It returns within about twice
// CloseDelay, and nil unless the server could not be stopped. It is
// idempotent and safe from any goroutine; every call, and every
// Shutdown, returns the first call's result.
func (s *Stdio) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.shutdown() })
	return s.closeErr
}

// Shutdown shuts the server down as Close does, but stops waiting for it
// when ctx is done: a server that has not exited by itself by then is sent
// SIGTERM at once, and killed if it is still there 250ms later (or
// CloseDelay later, if that is shorter). Given a context that is already
// done — the user pressed Ctrl-C — it waits for nothing; given one that
// does not end, it is Close.
//
// There is one shutdown per Stdio: a Close or Shutdown already waiting
// when ctx ends is hurried the same way, and every call waits for the one
// shutdown and returns its result. So a host can cut short a Close it
// does not make itself, such as a session's. Shutdown does not return
// ctx.Err(): a server stopped by a signal is stopped, and nil says so.
// It is idempotent and safe from any goroutine.
func (s *Stdio) Shutdown(ctx context.Context) error {
	stop := context.AfterFunc(ctx, s.hurry)
	defer stop()
	if ctx.Err() != nil {
		s.hurry() // now, not in AfterFunc's goroutine: Close must see it
	}
	return s.Close()
}

// hurry makes the shutdown, to come or under way, stop waiting for the
// server to exit by itself.
func (s *Stdio) hurry() { s.hurryOnce.Do(func() { close(s.hurried) }) }

// hurriedGrace is how long a server has to exit after SIGTERM once a
// Shutdown's context ended.
const hurriedGrace = 250 * time.Millisecond

func (s *Stdio) shutdown() error {
	close(s.closing)
	// Closing our end of stdout along with stdin unblocks Read, and frees a
	// server stuck writing a reply no one will read: its write fails.
	s.lines.Close()
	err := s.stop()
	if err == nil {
		<-s.exited // follows the exit within exitGrace
	}
	// Whatever still holds stderr, we are done reading it.
	s.stderr.Close()
	t := time.NewTimer(exitGrace)
	defer t.Stop()
	select {
	case <-s.drained:
	case <-t.C: // blocked in StdioConfig.Stderr; let it be
	}
	return err
}

// stop escalates until the server, and on systems with process groups
// every process in its group, is gone.
func (s *Stdio) stop() error {
	if s.await(s.delay, s.hurried) {
		return nil
	}
	s.logInfo("transport: server still running after its stdin was closed; terminating it")
	terminate(s.cmd.Process)
	if s.awaitTerminated() {
		return nil
	}
	s.logInfo("transport: server still running after it was terminated; killing it")
	kill(s.cmd.Process)
	t := time.NewTimer(killWait)
	defer t.Stop()
	select {
	case <-s.gone:
		return nil
	case <-t.C:
		return fmt.Errorf("stopping server (pid %d): still running after it was killed", s.Pid())
	}
}

// awaitTerminated waits for a server sent SIGTERM: CloseDelay, or what is
// left of hurriedGrace since the signal once the shutdown is hurried —
// before the signal or while it waits.
func (s *Stdio) awaitTerminated() bool {
	sent := time.Now()
	if s.await(s.delay, s.hurried) {
		return true
	}
	left := min(s.delay, hurriedGrace) - time.Since(sent)
	return left > 0 && s.await(left, nil)
}

// await waits up to d for the server to exit and its process group, where
// there is one, to empty; it gives up early when hurry is closed. A server
// that exited may have left children holding its pipes; they are stopped
// with it. Giving up, it looks once more, so that a server that is gone is
// never signalled.
func (s *Stdio) await(d time.Duration, hurry <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.gone:
	case <-t.C:
		return s.ended()
	case <-hurry:
		return s.ended()
	}
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for groupAlive(s.cmd.Process) {
		select {
		case <-t.C:
			return s.ended()
		case <-hurry:
			return s.ended()
		case <-tick.C:
		}
	}
	return true
}

// ended says whether the server has exited and left no process in its group.
func (s *Stdio) ended() bool { return isDone(s.gone) && !groupAlive(s.cmd.Process) }

func (s *Stdio) logInfo(msg string) {
	if s.log != nil {
		s.log.Info(msg, "waited", s.delay, "hurried", isDone(s.hurried))
	}
}
