package transport

import (
	"bytes"
	"errors"
	"io"

	"os"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"
)

// stderrLineMax bounds one stderr line in the log; the rest of a longer
// line is left out.
const stderrLineMax = 1 << 10

// drain reads the server's stderr until it ends, keeping its tail, copying
// it to w if w is set and logging its lines. Reading it promptly is not
// optional: a server blocks once the pipe is full, and a chatty one would
// stall mid-answer.
func (s *Stdio) drain(w io.Writer) {
	defer close(s.drained)
	var lines *lineLogger
	if s.log != nil {
		lines = &lineLogger{log: s.log}
	}
	buf := make([]byte, 32<<10)
	progressed := false
	for {
		n, err := s.stderr.Read(buf)
		if n > 0 {
			progressed = true
			s.tail.Write(buf[:n])
			if w != nil {
				w.Write(buf[:n])
			}
			if lines != nil {
				lines.Write(buf[:n])
			}
		}
		if err == nil {
			continue
		}
		// After the exit, a deadline bounds the drain (a grandchild may hold
		// stderr). Extend it while output still flows, so none is lost.
		if errors.Is(err, os.ErrDeadlineExceeded) && progressed {
			progressed = false
			s.stderr.SetReadDeadline(time.Now().Add(exitGrace))
			continue
		}
		return
	}
}

// tail keeps the last max bytes written to it. It is safe for concurrent
// use.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte // the kept bytes are its last max bytes
}

func (t *tail) Write(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) > t.max {
		p = p[len(p)-t.max:]
	}
	t.buf = append(t.buf, p...)
	// Let the buffer run to twice the size before moving the tail to the
	// front, so each byte is moved at most once on average.
	if len(t.buf) > 2*t.max {
		t.buf = t.buf[:copy(t.buf, t.buf[len(t.buf)-t.max:])]
	}
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf[max(0, len(t.buf)-t.max):])
}

// lineLogger logs each line written to it at Debug level.
type lineLogger struct {
	log     logging.Logger
	partial []byte // the current line so far, at most stderrLineMax bytes
}

func (l *lineLogger) Write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.keep(p)
			return
		}
		l.keep(p[:i])
		l.log.Debug("transport: server stderr", "line", string(bytes.TrimRight(l.partial, "\r")))
		l.partial = l.partial[:0]
		p = p[i+1:]
	}
}

func (l *lineLogger) keep(p []byte) {
	room := stderrLineMax - len(l.partial)
	l.partial = append(l.partial, p[:min(len(p), room)]...)
}
