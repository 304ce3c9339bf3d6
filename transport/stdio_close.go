package transport

import (
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
// idempotent and safe from any goroutine; every call returns the first
// call's result.
func (s *Stdio) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.shutdown() })
	return s.closeErr
}

// Terminate is Close for a host in a hurry — its user pressed Ctrl-C: the
// server is not given CloseDelay to exit on its own once its stdin closes,
// but sent SIGTERM at once, and killed hurriedGrace later if it is still
// there. A Close already waiting hurries too. Like Close, it is idempotent
// and safe from any goroutine, and returns Close's result.
func (s *Stdio) Terminate() error {
	s.Hurry()
	return s.Close()
}

// Hurry makes the Close to come (or one already waiting) Terminate's: no
// CloseDelay for the server to exit on its own. Unlike Terminate it
// leaves the stream open, so that a host can still send what it must
// before closing it — the cancellation of the request its user gave up
// on. Idempotent and safe from any goroutine.
func (s *Stdio) Hurry() {
	s.hurryOnce.Do(func() { close(s.hurry) })
}

// hurriedGrace is how long a terminated server has to exit after SIGTERM
// before it is killed.
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
	if s.await(s.delay, s.hurry) {
		return nil
	}
	s.logInfo("transport: server still running after its stdin was closed; terminating it")
	terminate(s.cmd.Process)
	grace := s.delay
	if isDone(s.hurry) {
		grace = min(grace, hurriedGrace)
	}
	if s.await(grace, nil) {
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

// await waits up to d for the server to exit and its process group, where
// there is one, to empty; it gives up early when hurry is closed. A server that exited may have left children
// holding its pipes; they are stopped with it.
func (s *Stdio) await(d time.Duration, hurry <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.gone:
	case <-t.C:
		return false
	case <-hurry:
		return false
	}
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for groupAlive(s.cmd.Process) {
		select {
		case <-t.C:
			return false
		case <-hurry:
			return false
		case <-tick.C:
		}
	}
	return true
}

func (s *Stdio) logInfo(msg string) {
	if s.log != nil {
		s.log.Info(msg, "waited", s.delay)
	}
}
