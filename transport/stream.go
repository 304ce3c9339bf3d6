package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// LineStream is a jsonrpc.Stream that carries one frame per line over any
// reader and writer: the shape of MCP's stdio transport. A server uses it
// on os.Stdin and os.Stdout; Stdio uses it on a child process's pipes.
// Reading goes through a lineReader, so banners, blank lines and oversized
// lines are skipped rather than fatal.
//
// As jsonrpc.Stream requires, one goroutine at a time may Read, any number
// may Write (frames never interleave), and Close may be called from any
// goroutine, any number of times.
type LineStream struct {
	lines *lineReader
	r     io.Reader
	w     io.Writer
	wdl   writeDeadliner // w, if its writes can be interrupted; else nil

	// wsem holds a token while a Write is writing. It is a channel rather
	// than a mutex so that a Write waiting its turn still honours ctx.
	wsem chan struct{}
	torn bool   // guarded by wsem: the last write stopped mid-line
	wbuf []byte // guarded by wsem: the line being written, reused

	// quickBy, guarded by wsem, is the write deadline that write left on
	// wdl: zero for none, in the past after an interrupt (see write).
	quickBy time.Time

	// interrupt fails a write in progress when its ctx ends and then
	// signals interrupted (1-buffered). Made once: writes take turns.
	interrupt   func()
	interrupted chan struct{}

	done      chan struct{} // closed by Close
	closeOnce sync.Once
	closeErr  error
}

var _ jsonrpc.Stream = (*LineStream)(nil)

// maxKeptWrite bounds the write buffer a LineStream keeps between frames.
const maxKeptWrite = 64 << 10

type writeDeadliner interface {
	SetWriteDeadline(t time.Time) error
}

// NewLineStream returns a stream that reads frames from r and writes them
// to w. The stream owns both: Close closes each one that is an io.Closer,
// which is what unblocks a Read or Write in progress. (A Read blocked on a
// reader that cannot be closed returns only when that reader does.)
//
// If w has a SetWriteDeadline method that works, as an *os.File from
// os.Pipe or a net.Conn does, a Write blocked on a full pipe returns when
// its ctx ends (at most 10 ms later); otherwise ctx is checked before
// writing. The stream then sets w's write deadline as it needs and may
// leave one in place between writes. A nil opts means defaults.
func NewLineStream(r io.Reader, w io.Writer, opts *LineOptions) *LineStream {
	s := &LineStream{
		lines: newLineReader(r, opts, readBufSize),
		r:     r,
		w:     w,
		wsem:  make(chan struct{}, 1),
		done:  make(chan struct{}),
	}
	// Files that are not pipes or sockets accept the method but fail it.
	if d, ok := w.(writeDeadliner); ok && d.SetWriteDeadline(time.Time{}) == nil {
		s.wdl = d
		s.interrupted = make(chan struct{}, 1)
		s.interrupt = func() {
			d.SetWriteDeadline(pastDeadline) // fail the write now
			s.interrupted <- struct{}{}
		}
	}
	return s
}

// Read returns the next frame; the slice belongs to the caller. It returns
// io.EOF when the reader ends and an error wrapping jsonrpc.ErrClosed once
// Close has been called.
func (s *LineStream) Read() ([]byte, error) {
	if s.closed() {
		return nil, fmt.Errorf("reading frame: %w", jsonrpc.ErrClosed)
	}
	frame, err := s.lines.Next()
	switch {
	case err == nil:
		return frame, nil
	case s.closed():
		// The error is the echo of our own Close, not news about the peer.
		return nil, fmt.Errorf("reading frame: %w", jsonrpc.ErrClosed)
	case err == io.EOF:
		return nil, io.EOF
	default:
		return nil, fmt.Errorf("reading frame: %w", err)
	}
}

// Write writes frame followed by '\n' and does not keep frame. Frame should
// hold no raw newline (encoding/json never writes one). Write returns
// ctx.Err() if ctx ends first, and an error wrapping jsonrpc.ErrClosed
// after Close.
func (s *LineStream) Write(ctx context.Context, frame []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case s.wsem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return fmt.Errorf("writing frame: %w", jsonrpc.ErrClosed)
	}
	defer func() { <-s.wsem }()
	if s.closed() {
		return fmt.Errorf("writing frame: %w", jsonrpc.ErrClosed)
	}

	var err error
	if len(frame) <= maxKeptWrite {
		// One buffer, one write: a small frame reaches a pipe in one piece.
		buf := s.wbuf[:0]
		if s.torn {
			// End the line a cancelled write left half done, so the peer
			// drops that fragment instead of gluing it to this frame.
			buf = append(buf, '\n')
		}
		buf = append(buf, frame...)
		buf = append(buf, '\n')
		var n int
		n, err = s.write(ctx, buf)
		if n > 0 {
			s.torn = n < len(buf)
		}
		s.wbuf = buf
	} else {
		// A large frame is written as it is, not copied: a pipe takes it
		// in pieces anyway.
		err = s.writeLine(ctx, frame)
	}
	switch {
	case err == nil:
		return nil
	case s.closed():
		return fmt.Errorf("writing frame: %w", jsonrpc.ErrClosed)
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		return fmt.Errorf("writing frame: %w", err)
	}
}

// writeLine writes frame and its newline in three writes at most (the
// newline ending a torn line first), keeping track of a line left torn.
func (s *LineStream) writeLine(ctx context.Context, frame []byte) error {
	nl := []byte{'\n'}
	if s.torn {
		if n, err := s.write(ctx, nl); n == 0 {
			return err
		}
		s.torn = false
	}
	n, err := s.write(ctx, frame)
	if n > 0 {
		s.torn = true // until the newline is out
	}
	if err != nil {
		return err
	}
	if n, err = s.write(ctx, nl); n == 1 {
		s.torn = false
	}
	return err
}

// write writes buf, interrupting the write when ctx ends if w allows it.
//
// Most writes find room in the pipe at once, and watching ctx costs a few
// allocations (context.AfterFunc), so a write first runs under a deadline
// without watching; only a write that waits past it, on a full pipe, goes
// on watching ctx. The deadline rolls: it is set quickWindow ahead and
// left in place, and a write sets it again only when less than quickWrite
// of it is left, so that writes in quick succession share one (setting a
// deadline takes the poller's lock and moves a runtime timer: twice per
// write, when each write set and cleared its own, that was 0.4 to 0.9 µs
// of CPU per call). A write that watches ctx, or whose ctx cannot end,
// first clears a deadline it finds left (quickBy), so that nothing but
// its ctx ends it.
func (s *LineStream) write(ctx context.Context, buf []byte) (int, error) {
	if s.wdl == nil {
		return s.w.Write(buf)
	}
	if ctx.Done() == nil {
		s.clearDeadline()
		return s.w.Write(buf)
	}
	s.armQuick()
	n, err := s.w.Write(buf)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return n, err
	}
	// The write waited past the deadline, or met one in the past (Stdio
	// sets one once the server is gone). From here on ctx ends it.
	s.clearDeadline()
	if err := ctx.Err(); err != nil {
		return n, err
	}
	stop := context.AfterFunc(ctx, s.interrupt)
	m, err := s.w.Write(buf[n:])
	if !stop() {
		// The interrupt's deadline was (or is being) set: wait until it
		// is, so that it cannot land on a later write's wait, which then
		// finds it in quickBy.
		<-s.interrupted
		s.quickBy = pastDeadline
	}
	return n + m, err
}

// pastDeadline is the deadline that fails a write at once.
var pastDeadline = time.Unix(1, 0)

// clearDeadline takes away the deadline write left on wdl, if any.
func (s *LineStream) clearDeadline() {
	if !s.quickBy.IsZero() {
		s.wdl.SetWriteDeadline(time.Time{})
		s.quickBy = time.Time{}
	}
}

// armQuick makes sure the write deadline leaves the write about to start
// at least quickWrite, setting it quickWindow ahead if not.
func (s *LineStream) armQuick() {
	now := time.Now()
	if s.quickBy.Sub(now) >= quickWrite {
		return
	}
	s.quickBy = now.Add(quickWindow)
	s.wdl.SetWriteDeadline(s.quickBy)
}

// quickWrite is the least time a write may take before it starts watching
// its context: long enough for a pipe with room. quickWindow is how far
// ahead the deadline is set, and so the longest a cancelled write on a
// full pipe can take to return: short enough that it still returns at
// once.
const (
	quickWrite  = 2 * time.Millisecond
	quickWindow = 10 * time.Millisecond
)

// Close closes the reader and the writer (those that are io.Closers) and
// makes every later Read and Write fail with jsonrpc.ErrClosed. It is
// idempotent and returns the first result every time.
func (s *LineStream) Close() error {
	s.closeOnce.Do(func() {
		close(s.done)
		s.closeErr = closeBoth(s.r, s.w)
	})
	return s.closeErr
}

// Stats returns the line counts so far. It is safe to call at any time.
func (s *LineStream) Stats() LineStats { return s.lines.Stats() }

func (s *LineStream) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// closeBoth closes r and w, once each even when they are the same object
// (a net.Conn passed as both).
func closeBoth(r io.Reader, w io.Writer) error {
	var errs [2]error
	if c, ok := r.(io.Closer); ok {
		errs[0] = c.Close()
	}
	if c, ok := w.(io.Closer); ok && !same(r, w) {
		errs[1] = c.Close()
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("closing stream: %w", err)
		}
	}
	return nil
}

// same reports whether a and b are the same value, without panicking on
// types that cannot be compared.
func same(a, b any) bool {
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t != nil && t.Comparable() && a == b
}
