package streamhttp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/transport"
)

// ErrEventTooLarge is wrapped by the error an sseReader returns for an event
// or a line longer than its limit.
var ErrEventTooLarge = errors.New("transport: server-sent event too large")

// lineSlack is how much longer than the event limit a line may be: room for
// a field name, its colon and a space beside a value of the full size.
const lineSlack = 64

// keepBuf is the largest buffer an sseReader keeps for reuse after an event;
// the memory of a rare huge event is given back.
const keepBuf = 1 << 20

// event is one event dispatched from a Server-Sent Events stream.
type event struct {
	ID    string // the event's id field, if it had one (see HasID)
	HasID bool   // whether the event had an id field without NUL
	Type  string // the event field; "" means the default, "message"
	Data  string // the data lines joined with "\n", without a trailing newline
}

// sseReader reads a Server-Sent Events stream as the WHATWG HTML standard's
// "Interpreting an event stream" says: lines end in CRLF, LF or CR; a
// leading byte order mark is skipped; invalid UTF-8 becomes U+FFFD; lines
// starting with ':' are comments; a blank line dispatches the event built
// so far, unless its data is empty. An event cut off by the end of the
// stream is discarded.
//
// An event's data and each line are bounded, so a runaway server cannot
// exhaust memory; past the bound Next fails for good with an error wrapping
// ErrEventTooLarge. Events of many MiB on one line are read in linear time.
//
// An sseReader is not safe for concurrent use: call its methods from one
// goroutine at a time.
type sseReader struct {
	br       *bufio.Reader
	max      int
	err      error // sticky: after an over-limit event nothing can be trusted
	started  bool  // the first line (which may begin with a BOM) was read
	skipLF   bool  // the last line ended with CR: an LF next belongs to it
	line     []byte
	lineDone bool // line was returned and is free for reuse

	data   []byte // the data buffer: each data value followed by "\n"
	typ    string // the event type buffer
	idBuf  string // the last event ID buffer
	hasID  bool   // the event being built had a valid id field
	lastID string // the last event ID as of the last dispatch
	retry  time.Duration
	hasRet bool
}

// NewSSEReader returns a reader of the event stream r. maxEvent bounds one
// event's data in bytes, and one line; zero or less means transport.DefaultMaxLine.
func newSSEReader(r io.Reader, maxEvent int) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 64<<10), max: orDefault(maxEvent, transport.DefaultMaxLine)}
}

// Next returns the next dispatched event. It returns io.EOF at the end of
// the stream (discarding an incomplete last event) and other read errors as
// they are; after such an error a later call resumes where it stopped.
func (r *sseReader) Next() (event, error) {
	for r.err == nil {
		line, err := r.readLine()
		if err == io.EOF {
			r.data, r.typ, r.hasID = r.data[:0], "", false
			return event{}, io.EOF
		}
		if err != nil {
			return event{}, err
		}
		if len(line) == 0 {
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		r.field(line)
	}
	return event{}, r.err
}

// LastEventID returns the ID a reconnecting client would send as
// Last-Event-ID: the last event ID buffer as it stood at the last blank
// line. So it counts events with no data (such as MCP's priming event), but
// not an event the end of the stream cut off.
func (r *sseReader) LastEventID() string { return r.lastID }

// Retry returns the reconnection time from the latest valid retry field,
// and whether there was one. A value of anything but ASCII digits, or too
// large for a time.Duration, is ignored.
func (r *sseReader) Retry() (time.Duration, bool) { return r.retry, r.hasRet }

// dispatch ends the event at a blank line; ok is false when its data is
// empty and nothing is dispatched.
func (r *sseReader) dispatch() (ev event, ok bool) {
	r.lastID = r.idBuf
	if len(r.data) > 0 {
		ev = event{Type: r.typ, Data: string(r.data[:len(r.data)-1]), HasID: r.hasID}
		if r.hasID {
			ev.ID = r.idBuf
		}
		ok = true
	}
	r.data, r.typ, r.hasID = r.data[:0], "", false
	if cap(r.data) > keepBuf {
		r.data = nil
	}
	return ev, ok
}

// field processes one non-blank line.
func (r *sseReader) field(line []byte) {
	if line[0] == ':' {
		return // a comment
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "event":
		r.typ = string(validUTF8(value))
	case "data":
		value = validUTF8(value)
		if len(r.data)+len(value) > r.max {
			r.err = fmt.Errorf("%w: data over the %d-byte limit", ErrEventTooLarge, r.max)
			return
		}
		r.data = append(slices.Grow(r.data, len(value)+1), value...)
		r.data = append(r.data, '\n')
	case "id":
		if bytes.IndexByte(value, 0) >= 0 {
			return
		}
		r.idBuf, r.hasID = string(validUTF8(value)), true
	case "retry":
		if ms, ok := parseDigits(value); ok && ms <= int64(1<<63-1)/int64(time.Millisecond) {
			r.retry, r.hasRet = time.Duration(ms)*time.Millisecond, true
		}
	}
}

// readLine returns the next line without its ending. The line is valid
// until the next call. At the end of the input a line without an ending is
// no line: readLine returns io.EOF.
func (r *sseReader) readLine() ([]byte, error) {
	if r.lineDone {
		r.line, r.lineDone = r.line[:0], false
		if cap(r.line) > keepBuf {
			r.line = nil
		}
	}
	for {
		if r.br.Buffered() == 0 {
			if _, err := r.br.Peek(1); err != nil {
				if err == io.EOF {
					r.line = r.line[:0]
				}
				return nil, err
			}
		}
		buf, _ := r.br.Peek(r.br.Buffered())
		if r.skipLF {
			r.skipLF = false
			if buf[0] == '\n' {
				r.br.Discard(1)
				continue
			}
		}
		end := -1
		for i, c := range buf {
			if c == '\n' || c == '\r' {
				end = i
				break
			}
		}
		if end < 0 {
			if len(r.line)+len(buf) > r.max+lineSlack {
				r.err = fmt.Errorf("%w: a line over the %d-byte limit", ErrEventTooLarge, r.max)
				return nil, r.err
			}
			r.line = append(r.line, buf...)
			r.br.Discard(len(buf))
			continue
		}
		line := buf[:end]
		if len(r.line) > 0 {
			r.line = append(r.line, line...)
			line = r.line
		}
		r.skipLF = buf[end] == '\r'
		r.br.Discard(end + 1) // buf stays intact until the next read
		r.lineDone = true
		if len(line) > r.max+lineSlack {
			r.err = fmt.Errorf("%w: a line over the %d-byte limit", ErrEventTooLarge, r.max)
			return nil, r.err
		}
		if !r.started {
			r.started = true
			if len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
				line = line[3:]
			}
		}
		return line, nil
	}
}

// parseDigits parses a non-empty string of ASCII digits.
func parseDigits(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}

// validUTF8 returns b, or a copy with each maximal invalid subsequence
// replaced by U+FFFD, as the UTF-8 decoder of the Encoding standard does.
func validUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		if r, n := utf8.DecodeRune(b[i:]); r != utf8.RuneError || n > 1 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		out = append(out, "\uFFFD"...)
		i += invalidPrefix(b[i:])
	}
	return out
}

// invalidPrefix returns the length of the maximal subpart of an invalid
// sequence at the start of b: a lead byte and the continuation bytes that
// could still have completed it.
func invalidPrefix(b []byte) int {
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for n <= need && n < len(b) && b[n] >= lo && b[n] <= hi {
		lo, hi = 0x80, 0xBF
		n++
	}
	return n
}
