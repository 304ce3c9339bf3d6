package transport

import (
	"bufio"
	"io"
	"unicode/utf8"

	"strings"
	"sync/atomic"
	"unicode"

	"github.com/plainmcp/plainmcp/internal/logging"
)

// DefaultMaxLine is the longest line, in bytes, a lineReader accepts when
// no limit is given. Tool results of tens of MiB are real, so the default is
// generous; it is a guard against a runaway server, not a tuning knob.
const DefaultMaxLine = 128 << 20

// readBufSize is the lineReader's buffer. Lines that fit are copied once,
// straight out of it; longer lines are accumulated.
const readBufSize = 64 << 10

// keepAcc is the most storage a lineReader keeps between long lines.
const keepAcc = 4 << 20

// previewLen bounds the excerpt of a dropped line that goes into a report.
const previewLen = 80

// LineOptions configures a lineReader or a LineStream. A nil *LineOptions
// and zero fields mean defaults.
type LineOptions struct {
	// MaxLine is the longest accepted line in bytes, not counting its line
	// ending. Zero means DefaultMaxLine.
	MaxLine int

	// Logger receives a report for every dropped line. Nil means silent;
	// the counts in LineStats are kept either way.
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger
}

// LineStats counts what a lineReader has seen so far.
type LineStats struct {
	Frames    int64 // lines returned as frames
	Skipped   int64 // blank lines and lines that are not JSON (banners, logs)
	Oversized int64 // lines dropped for being longer than the limit
}

// lineReader reads newline-delimited JSON-RPC frames and tolerates what
// servers print besides them. A line is a frame when its first byte other
// than JSON whitespace is '{' or '['; other lines (blank lines, banners, log
// output) are skipped. A line longer than the limit is dropped without being
// buffered whole, and reading goes on with the next line. Lines may end in
// "\n" or "\r\n"; a last line without a line ending is still read.
//
// One goroutine at a time may call Next; Stats may be called from any
// goroutine at any time.
type lineReader struct {
	br  *bufio.Reader
	max int
	log logging.Logger

	// The line in progress when it spans more than one buffer. It lives
	// here, not in Next's frame, so that a read error (a deadline, say)
	// leaves it intact and the next call resumes the line instead of
	// mistaking its second half for a line of its own. A finished line is
	// copied out at its exact size and the storage (up to keepAcc) is kept
	// for the next long line, so a long line costs one allocation once
	// the storage has grown, and the growth doubles.
	acc     []byte
	dropped int    // > 0 while draining an oversized line: its length so far
	preview string // the start of the line being drained

	frames, skipped, oversized atomic.Int64
}

// newLineReader returns a lineReader that reads from r through a buffer of
// bufSize (readBufSize; tests use a tiny one so that short lines exercise
// the path for lines that span buffers). A nil opts means defaults.
func newLineReader(r io.Reader, opts *LineOptions, bufSize int) *lineReader {
	lr := &lineReader{br: bufio.NewReaderSize(r, bufSize), max: DefaultMaxLine}
	if opts != nil {
		if opts.MaxLine > 0 {
			lr.max = opts.MaxLine
		}
		lr.log = logging.Usable(opts.Logger)
	}
	return lr
}

// Next returns the next frame, without its line ending and surrounding
// whitespace. The slice is newly allocated and belongs to the caller.
//
// At the end of the input Next returns io.EOF. Any other error from the
// underlying reader is returned as it is; a line cut short by it is kept,
// and a later call to Next resumes it.
func (lr *lineReader) Next() ([]byte, error) {
	for {
		line, owned, ok, err := lr.readLine()
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if frame, ok := lr.frame(line, owned); ok {
			lr.frames.Add(1)
			return frame, nil
		}
	}
}

// readLine reads one whole line, without its '\n'. ok is false for a line
// that was too long: it has been drained and reported, and the caller reads
// the next. owned says the line is a copy of ours; otherwise it points into
// bufio's buffer and is valid only until the next read.
func (lr *lineReader) readLine() (line []byte, owned, ok bool, err error) {
	chunk, err := lr.br.ReadSlice('\n')
	for err == bufio.ErrBufferFull {
		lr.add(chunk)
		chunk, err = lr.br.ReadSlice('\n')
	}
	switch {
	case err == nil:
		chunk = chunk[:len(chunk)-1]
	case err == io.EOF:
		if len(chunk) == 0 && len(lr.acc) == 0 && lr.dropped == 0 {
			return nil, false, false, io.EOF
		}
		// A last line without '\n' counts; the next call reports io.EOF.
	default:
		lr.add(chunk)
		return nil, false, false, err
	}
	line = chunk
	if len(lr.acc) > 0 || lr.dropped > 0 {
		if lr.dropped == 0 && len(lr.acc)+len(chunk) <= lr.max+1 {
			line, owned = lr.take(chunk), true
		} else {
			lr.add(chunk)
		}
	}
	if lr.dropped > 0 {
		lr.reportOversized(lr.dropped, lr.preview)
		lr.dropped, lr.preview = 0, ""
		return nil, false, false, nil
	}
	return line, owned, true, nil
}

// frame trims a line down to its frame. ok is false for a line that is no
// frame (a banner, a log line, a blank), which is counted and reported.
func (lr *lineReader) frame(line []byte, owned bool) (frame []byte, ok bool) {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) > lr.max {
		lr.reportOversized(len(line), preview(line))
		return nil, false
	}
	frame = trimSpace(line)
	if len(frame) == 0 || (frame[0] != '{' && frame[0] != '[') {
		lr.reportSkipped(line, frame)
		return nil, false
	}
	if !owned {
		frame = append(make([]byte, 0, len(frame)), frame...)
	}
	return frame, true
}

// add appends a piece of the current line, switching to draining once the
// line is known to be too long.
func (lr *lineReader) add(chunk []byte) {
	switch {
	case lr.dropped > 0:
		lr.dropped += len(chunk)
	// The +1 leaves room for a '\r' that may turn out to be the line ending.
	case len(lr.acc)+len(chunk) > lr.max+1:
		head := lr.acc
		if len(head) < previewLen {
			head = append(head[:len(head):len(head)], chunk[:min(len(chunk), previewLen-len(head))]...)
		}
		lr.preview = preview(head)
		lr.dropped = len(lr.acc) + len(chunk)
		lr.empty()
	case len(chunk) > 0:
		if n := len(lr.acc) + len(chunk); n > cap(lr.acc) {
			lr.acc = append(make([]byte, 0, max(n, 2*cap(lr.acc))), lr.acc...)
		}
		lr.acc = append(lr.acc, chunk...)
	}
}

// take returns a copy of the line in progress followed by last, and
// empties the storage, keeping it unless it is large.
func (lr *lineReader) take(last []byte) []byte {
	line := make([]byte, 0, len(lr.acc)+len(last))
	line = append(append(line, lr.acc...), last...)
	lr.empty()
	return line
}

// empty forgets the line in progress, keeping its storage unless large.
func (lr *lineReader) empty() {
	if cap(lr.acc) > keepAcc {
		lr.acc = nil
	} else {
		lr.acc = lr.acc[:0]
	}
}

// Stats returns the counts so far.
func (lr *lineReader) Stats() LineStats {
	return LineStats{Frames: lr.frames.Load(), Skipped: lr.skipped.Load(), Oversized: lr.oversized.Load()}
}

func (lr *lineReader) reportSkipped(line, trimmed []byte) {
	lr.skipped.Add(1)
	if lr.log == nil {
		return
	}
	if len(trimmed) == 0 {
		lr.log.Debug("transport: skipped a blank line")
		return
	}
	lr.log.Info("transport: skipped a line that is not a JSON-RPC frame", "preview", preview(line))
}

func (lr *lineReader) reportOversized(n int, preview string) {
	lr.oversized.Add(1)
	if lr.log != nil {
		lr.log.Warn("transport: dropped a line over the size limit", "bytes", n, "limit", lr.max, "preview", preview)
	}
}

// trimSpace trims JSON whitespace. bytes.TrimSpace would also take Unicode
// spaces, which JSON does not allow between tokens.
func trimSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// preview returns at most previewLen bytes of the start of b, safe to put
// in a log line: invalid UTF-8 becomes '?' and control characters '.'.
func preview(b []byte) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == utf8.RuneError: // strings.Map hands each invalid byte on as this
			return '?'
		case unicode.IsControl(r):
			return '.'
		}
		return r
	}, string(b[:min(len(b), previewLen)]))
}
