package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/childproc"
	"github.com/plainmcp/plainmcp/internal/logging"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// exitGrace is how long stdout and stderr may stay open after the server
// exited. What the server wrote before it died is already in the pipes and
// takes far less; the bound is for a process the server started, which
// inherited the pipes and may hold them open forever.
const exitGrace = 150 * time.Millisecond

// exitReportWait is how long a stdout that ended waits for the server's
// exit to be seen, so that the error can name its status and quote its
// stderr. A server that exited is seen within milliseconds on an idle
// machine, but a loaded one took over 300 ms; only a server that closed
// stdout and kept running costs the whole wait.
const exitReportWait = time.Second

// StdioConfig describes an MCP server to run as a child process. Zero
// fields mean their defaults.
type StdioConfig struct {
	// Command is the program to run, looked up in our PATH if it has no
	// path separator. It is never run through a shell.
	Command string
	// Args are the program's arguments, passed as they are.
	Args []string
	// Env holds "KEY=VALUE" entries added on top of the base environment.
	// The base is a small safe set of our own variables (PATH, HOME, USER,
	// LOGNAME, SHELL, TERM, TMPDIR, LANG, LC_ALL, and on Windows the
	// system's equivalents) so that secrets in our environment do not leak
	// to servers; a later entry wins over an earlier one.
	Env []string
	// InheritEnv makes the base environment all of ours, not the safe set.
	InheritEnv bool
	// Dir is the server's working directory; empty means ours.
	Dir string
	// Stderr, if set, receives a copy of everything the server writes to
	// stderr. It should not block for long: while it does, a server
	// writing to stderr waits.
	Stderr io.Writer
	// Logger receives dropped stdout lines, stderr lines (at Debug level)
	// and shutdown steps. Nil means silent.
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger
	// MaxLine is the longest accepted stdout line in bytes; zero means
	// DefaultMaxLine.
	MaxLine int
	// StderrTail is how many bytes of the end of stderr an ExitError
	// quotes; zero means 16 KiB.
	StderrTail int
	// CloseDelay is how long Close waits at each step of the shutdown: for
	// the server to exit after its stdin is closed, then after SIGTERM.
	// Zero means 2 seconds.
	CloseDelay time.Duration
}

// Stdio is the MCP stdio transport: a server running as a child process,
// one frame per line on its stdin and stdout, its stderr kept as a log.
// It implements jsonrpc.Stream: one goroutine at a time may Read, any
// number may Write, and Close and the other methods are safe from any
// goroutine at any time.
//
// When the server exits, Read still returns the frames it wrote before, then
// an error wrapping *ExitError, which quotes the end of its stderr.
type Stdio struct {
	cmd    *exec.Cmd
	lines  *LineStream // over our ends of the server's stdout and stdin
	stdout *os.File
	stdin  *os.File
	stderr *os.File
	tail   *tail
	log    logging.Logger // nil means silent
	delay  time.Duration

	// deadlines tells whether stdout takes read deadlines (os.Pipe on
	// Unix does; Windows' anonymous pipes do not).
	deadlines bool

	gone    chan struct{} // closed when the process has exited
	exited  chan struct{} // closed after gone, once exitErr is set
	exitErr *ExitError
	drained chan struct{} // closed when the stderr drain stops

	closing   chan struct{} // closed when Close begins
	closeOnce sync.Once
	hurried   chan struct{} // closed when a Shutdown's ctx ends: stop waiting
	hurryOnce sync.Once
	closeErr  error

	readErr error // the error that ended reading; Read's goroutine only
}

var _ jsonrpc.Stream = (*Stdio)(nil)

// StartStdio starts the server cfg describes and returns the stream to it.
// The process lives until Close, or until it exits by itself; a context
// would not fit that lifetime, so there is none.
func StartStdio(cfg StdioConfig) (*Stdio, error) {
	if cfg.Command == "" {
		return nil, errors.New("starting stdio server: no command")
	}
	env, err := environ(cfg.Env, cfg.InheritEnv)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
	}
	if cfg.Dir != "" {
		// Checked here because exec blames the program for a missing dir.
		if _, err := os.Stat(cfg.Dir); err != nil {
			return nil, fmt.Errorf("starting %s: working directory: %w", cfg.Command, err)
		}
	}
	cmd, ends, reap, err := startProcess(cfg, env)
	if err != nil {
		return nil, err
	}
	log := logging.With(cfg.Logger, "pid", cmd.Process.Pid) // nil when silent
	s := &Stdio{
		cmd:     cmd,
		lines:   NewLineStream(ends.stdout, ends.stdin, &LineOptions{MaxLine: cfg.MaxLine, Logger: log}),
		stdout:  ends.stdout,
		stdin:   ends.stdin,
		stderr:  ends.stderr,
		tail:    &tail{max: orDefault(cfg.StderrTail, 16<<10)},
		log:     log,
		delay:   orDefault(cfg.CloseDelay, 2*time.Second),
		gone:    make(chan struct{}),
		exited:  make(chan struct{}),
		drained: make(chan struct{}),
		closing: make(chan struct{}),
		hurried: make(chan struct{}),
	}
	s.deadlines = s.stdout.SetReadDeadline(time.Time{}) == nil
	go s.drain(cfg.Stderr)
	go s.wait(reap)
	return s, nil
}

// Read returns the next frame the server wrote; the slice belongs to the
// caller. Lines that are not frames are skipped (see lineReader).
//
// Frames the server wrote before it exited are still returned. Once they
// are read, Read returns an error wrapping *ExitError, and that error from
// then on. It does not wait for a stdout that a process the server started
// holds open: after the exit, stdout gets a short grace of silence (150ms). If stdout ends while the server lives on, Read
// waits briefly for the exit and otherwise returns an error wrapping
// io.ErrUnexpectedEOF. After Close, Read returns an error wrapping
// jsonrpc.ErrClosed.
func (s *Stdio) Read() ([]byte, error) {
	if s.isClosing() {
		return nil, fmt.Errorf("reading from server: %w", jsonrpc.ErrClosed)
	}
	if s.readErr != nil {
		return nil, s.readErr
	}
	for {
		goneBefore := isDone(s.gone)
		if goneBefore && s.deadlines {
			// Every read after the exit gets a fresh grace, so frames still
			// in the pipe are read however slowly we get to them.
			s.stdout.SetReadDeadline(time.Now().Add(exitGrace))
		}
		frame, err := s.lines.Read()
		switch {
		case err == nil:
			return frame, nil
		case s.isClosing():
			return nil, fmt.Errorf("reading from server: %w", jsonrpc.ErrClosed)
		case errors.Is(err, os.ErrDeadlineExceeded) && !goneBefore:
			// The exit cut short a read that began before it. Retry under
			// a fresh grace: the frame may be in the pipe.
			continue
		}
		s.readErr = s.readEnd(err)
		return nil, s.readErr
	}
}

// readEnd explains why stdout ended: usually the server's exit, which is
// waited for briefly when it has not been seen yet.
func (s *Stdio) readEnd(err error) error {
	t := time.NewTimer(exitReportWait)
	defer t.Stop()
	select {
	case <-s.exited:
		return fmt.Errorf("reading from server: %w", s.exitErr)
	case <-s.closing:
		return fmt.Errorf("reading from server: %w", jsonrpc.ErrClosed)
	case <-t.C:
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("reading from server: server closed its stdout but is still running: %w", io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("reading from server: %w", err)
}

// Write sends one frame to the server's stdin and does not keep it. It
// returns ctx.Err() if ctx ends first, an error wrapping *ExitError once
// the server has exited, and one wrapping jsonrpc.ErrClosed after Close.
func (s *Stdio) Write(ctx context.Context, frame []byte) error {
	if s.isClosing() {
		return fmt.Errorf("writing to server: %w", jsonrpc.ErrClosed)
	}
	if !isDone(s.gone) {
		err := s.lines.Write(ctx, frame)
		if err == nil || errors.Is(err, jsonrpc.ErrClosed) || ctx.Err() != nil {
			return err
		}
		// A write fails when the server is gone; its exit says why.
		t := time.NewTimer(exitReportWait)
		defer t.Stop()
		select {
		case <-s.gone:
		case <-t.C:
			return fmt.Errorf("writing to server: %w", err)
		}
	}
	// The exit status follows the exit within exitGrace.
	select {
	case <-s.exited:
		return fmt.Errorf("writing to server: %w", s.exitErr)
	case <-s.closing:
		return fmt.Errorf("writing to server: %w", jsonrpc.ErrClosed)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Pid returns the server's process id.
func (s *Stdio) Pid() int { return s.cmd.Process.Pid }

// Stats returns the counts of stdout lines read, skipped and dropped.
func (s *Stdio) Stats() LineStats { return s.lines.Stats() }

// wait reaps the process (with startProcess's reap) and arranges for the
// readers and writers that still wait on its pipes to finish.
func (s *Stdio) wait(reap func() error) {
	err := reap()
	close(s.gone)
	if s.deadlines {
		s.stdout.SetReadDeadline(time.Now().Add(exitGrace))
	} else {
		// Without deadlines, closing the pipe is the only way to end a
		// read that a straggling grandchild could make wait forever.
		time.AfterFunc(4*exitGrace, func() { s.stdout.Close() })
	}
	s.stderr.SetReadDeadline(time.Now().Add(exitGrace))
	s.stdin.SetWriteDeadline(time.Unix(1, 0)) // no one will ever read it

	t := time.NewTimer(exitGrace)
	select {
	case <-s.drained:
	case <-t.C:
	}
	t.Stop()
	s.exitErr = newExitError(err, s.tail.String())
	if s.log != nil {
		s.log.Debug("transport: server exited", "status", s.exitErr.Code, "signal", s.exitErr.Signal)
	}
	close(s.exited)
}

func (s *Stdio) isClosing() bool { return isDone(s.closing) }

func isDone(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// orDefault returns v, or def when v is zero or negative.
func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// ourEnds are the ends of the server's pipes that stay with us.
type ourEnds struct{ stdin, stdout, stderr *os.File }

// startProcess starts the server on pipes of our own rather than
// cmd.StdinPipe and friends: files from os.Pipe take deadlines, and
// cmd.Wait does not wait on copying goroutines, so the exit is seen the
// moment it happens.
//
// reap waits for the process to exit, as cmd.Wait does, and then lets go
// of what started it (see childproc.Start).
func startProcess(cfg StdioConfig, env []string) (cmd *exec.Cmd, ends ourEnds, reap func() error, err error) {
	cmd = exec.Command(cfg.Command, cfg.Args...)
	cmd.Env, cmd.Dir = env, cfg.Dir
	var pipes [6]*os.File // stdin r, w; stdout r, w; stderr r, w
	for i := 0; i < len(pipes); i += 2 {
		if pipes[i], pipes[i+1], err = os.Pipe(); err != nil {
			closeFiles(pipes[:i]...)
			return nil, ourEnds{}, nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0], pipes[3], pipes[5]
	release, err := childproc.Start(cmd) // its own group, dying with us
	// The child has its own copies now. Ours would keep the pipes open after
	// it exits and hide the end of its output.
	closeFiles(pipes[0], pipes[3], pipes[5])
	if err != nil {
		closeFiles(pipes[1], pipes[2], pipes[4])
		return nil, ourEnds{}, nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
	}
	reap = func() error {
		defer release()
		return cmd.Wait()
	}
	return cmd, ourEnds{stdin: pipes[1], stdout: pipes[2], stderr: pipes[4]}, reap, nil
}

func closeFiles(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}
