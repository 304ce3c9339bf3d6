package streamhttp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/transport"
)

// ErrEventTooLarge is wrapped by the error an sseReader returns for an event
// or a line longer than its limit.
var ErrEventTooLarge = errors.New("streamhttp: server-sent event too large")

// errReleased is what a reader returns once it has been released.
var errReleased = errors.New("streamhttp: event stream reader used after release")

// lineSlack is how much longer than the event limit a line may be: room for
// a field name, its colon and a space beside a value of the full size.
const lineSlack = 64

// keepBuf is the largest data buffer an sseReader keeps for the next event;
// a larger one leaves with its event (NextBytes) or to the garbage
// collector (Next).
const keepBuf = 64 << 10

// maxField bounds the value of an id, event or retry field, whatever the
// event limit: the last event ID outlives its event, and a stream's parser
// should hold about one event's worth of memory, not two.
const maxField = 64 << 10

// sseBufSize is the size of the read buffers, which come from sseBufs and
// go back there when a reader is released. A line longer than the buffer
// is read through it in pieces, so its size only sets the size of reads:
// one TLS record at most is what a read returns anyway.
const sseBufSize = 16 << 10

var sseBufs = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, sseBufSize) }}

// The bits of sseReader.state.
const (
	sseBusy     = 1 // Next or NextBytes is running
	sseReleased = 2 // release was called
)

// event is one event dispatched from a Server-Sent Events stream.
type event struct {
	ID    string // the event's id field, if it had one (see HasID)
	HasID bool   // whether the event had an id field without NUL
	Type  string // the event field; "" means the default, "message"
	Data  string // the data lines joined with "\n" (Next; NextBytes returns them apart)
}

// lineKind is what the line being read turned out to be.
type lineKind uint8

const (
	lineName  lineKind = iota // still reading the field name
	lineData                  // "data:": the value goes straight into the data buffer
	lineEvent                 // "event:", "id:" and "retry:": the value goes into field
	lineID
	lineRetry
	lineSkip // a comment or a field of no meaning: read past, not kept
)

// sseReader reads a Server-Sent Events stream as the WHATWG HTML standard's
// "Interpreting an event stream" says: lines end in CRLF, LF or CR; a
// leading byte order mark is skipped; invalid UTF-8 becomes U+FFFD; lines
// starting with ':' are comments; a blank line dispatches the event built
// so far, unless its data is empty. An event cut off by the end of the
// stream is discarded.
//
// An event's data and each line are bounded, so a runaway server cannot
// exhaust memory; past the bound Next fails for good with an error wrapping
// ErrEventTooLarge. The values of id, event and retry fields are bounded
// by maxField as well.
//
// Memory: a data line's value is copied from the read buffer straight into
// the event's data buffer, with no line buffer between. That buffer grows
// by doubling up to 32 KiB; larger data is gathered in parts of 32 KiB,
// or a quarter of the data so far when that is more, and joined into one
// buffer of its exact size when the event is dispatched. So a large
// event costs a little over twice its size in all (at worst 2.25 times),
// in a few parts (13 for 1 MiB), where doubling a buffer costs three
// times on average; NextBytes hands the
// joined buffer to the caller without a copy.
// Comments and unknown fields are not kept at all. Events of many MiB on
// one line are read in linear time.
//
// The read buffer comes from a pool: release gives it back, and must be
// called when the stream is done with (it is safe from any goroutine, even
// while Next runs; the buffer then goes back when Next returns). A released
// reader returns an error from Next and NextBytes and never reads again.
//
// Apart from release, an sseReader is not safe for concurrent use: call
// its methods from one goroutine at a time.
type sseReader struct {
	br    *bufio.Reader // from sseBufs; nil once released
	src   eofReader     // what br reads, for a reader from getSSEReader
	max   int
	state atomic.Int32 // sseBusy | sseReleased
	err   error        // sticky: after an over-limit event nothing can be trusted

	started bool // the byte order mark, if any, was skipped
	skipLF  bool // the last line ended with CR: an LF next belongs to it

	// The line being read.
	kind     lineKind
	name     [5]byte // the field name so far, while kind is lineName
	nameLen  int
	lineLen  int    // bytes of the line so far
	strip    bool   // the value has begun: a space first is dropped
	valStart int    // where the data line's value begins in data
	field    []byte // the value of an id, event or retry line

	// The event being built, and what outlives it.
	data     []byte   // the data values joined with "\n"
	parts    [][]byte // the data of a large line beyond data, until the line ends
	partsLen int
	hasData  bool   // there was a data line (data may still be empty)
	typ      string // the event type buffer
	idBuf    string // the last event ID buffer
	hasID    bool   // the event being built had a valid id field
	lastID   string // the last event ID as of the last dispatch
	retry    time.Duration
	hasRet   bool
}

// newSSEReader returns a reader of the event stream r. maxEvent bounds one
// event's data in bytes, and one line; zero or less means
// transport.DefaultMaxLine. Call release when done with it.
func newSSEReader(r io.Reader, maxEvent int) *sseReader {
	br := sseBufs.Get().(*bufio.Reader)
	br.Reset(r)
	return &sseReader{br: br, max: orDefault(maxEvent, transport.DefaultMaxLine)}
}

// Next returns the next dispatched event, its data in ev.Data. It returns
// io.EOF at the end of the stream (discarding an incomplete last event)
// and other read errors as they are; after such an error a later call
// resumes where it stopped. Data is a copy: NextBytes spares it.
func (r *sseReader) Next() (event, error) {
	if !r.enter() {
		return event{}, errReleased
	}
	defer r.exit()
	ev, err := r.next()
	if err != nil {
		return ev, err
	}
	ev.Data = string(r.data)
	if cap(r.data) > keepBuf {
		r.data = nil
	} else {
		r.data = r.data[:0]
	}
	return ev, nil
}

// NextBytes is Next with the event's data returned apart, in a slice that
// belongs to the caller (ev.Data is empty). A large event's buffer is
// handed over as it is, without a copy.
func (r *sseReader) NextBytes() (event, []byte, error) {
	if !r.enter() {
		return event{}, nil, errReleased
	}
	defer r.exit()
	ev, err := r.next()
	if err != nil {
		return ev, nil, err
	}
	data := r.data
	if c := cap(data); c > keepBuf || c-len(data) <= len(data)/4 {
		// Too large to keep, or about the size of its data: it goes with
		// the event, and the next event starts a buffer of its own.
		data, r.data = data[:len(data):len(data)], nil
	} else {
		data, r.data = bytes.Clone(data), data[:0]
	}
	return ev, data, nil
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

// next reads up to the next dispatched event, whose data is left in
// r.data for the caller to take.
func (r *sseReader) next() (event, error) {
	if r.err != nil {
		return event{}, r.err
	}
	if !r.started {
		if err := r.skipBOM(); err != nil {
			return event{}, err
		}
		r.started = true
	}
	// Every pass consumes input or returns.
	for {
		buf, err := r.buffered()
		if err != nil {
			return event{}, err
		}
		if r.skipLF {
			r.skipLF = false
			if buf[0] == '\n' {
				r.br.Discard(1)
				continue
			}
		}
		ev, ok := r.line(buf)
		switch {
		case r.err != nil:
			return event{}, r.err
		case ok:
			return ev, nil
		}
	}
}

// skipBOM skips the byte order mark that may open the stream. Waiting for
// three bytes delays nothing: no shorter stream dispatches anything.
func (r *sseReader) skipBOM() error {
	b, err := r.br.Peek(3)
	switch {
	case len(b) == 3:
		if b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
			r.br.Discard(3)
		}
	case err != io.EOF:
		return err
	}
	return nil
}

// buffered returns what is buffered, reading more if nothing is; at the
// end of the stream it dispatches nothing more and returns io.EOF.
func (r *sseReader) buffered() ([]byte, error) {
	if r.br.Buffered() == 0 {
		if _, err := r.br.Peek(1); err != nil {
			if err == io.EOF {
				r.endOfStream()
			}
			return nil, err
		}
	}
	return r.br.Peek(r.br.Buffered())
}

// line takes what buf holds of the current line, and ends the line if buf
// holds its end; ok says that dispatched an event.
func (r *sseReader) line(buf []byte) (ev event, ok bool) {
	end := indexLineEnd(buf)
	if end < 0 {
		r.take(buf)
		r.br.Discard(len(buf))
		return event{}, false
	}
	r.take(buf[:end])
	r.skipLF = buf[end] == '\r'
	r.br.Discard(end + 1)
	if r.err != nil {
		return event{}, false
	}
	return r.endLine()
}

// A line, as the reader takes it: a line's field name and
// value are taken as they arrive, and at the line's end the field takes
// effect — data appended, an id or retry kept, or a blank line dispatching
// the event.

// take processes the next piece of the line being read; seg holds no line
// ending.
func (r *sseReader) take(seg []byte) {
	r.lineLen += len(seg)
	for len(seg) > 0 && r.kind == lineName {
		c := seg[0]
		seg = seg[1:]
		switch {
		case c == ':':
			r.kind, r.strip = r.fieldKind(), true
			if r.kind == lineData {
				r.startData()
			}
		case r.nameLen == len(r.name):
			r.kind = lineSkip // longer than any field name
		default:
			r.name[r.nameLen] = c
			r.nameLen++
		}
	}
	if r.strip && len(seg) > 0 {
		r.strip = false
		if seg[0] == ' ' {
			seg = seg[1:]
		}
	}
	switch r.kind {
	case lineData:
		r.appendData(seg)
	case lineEvent, lineID, lineRetry:
		if len(r.field)+len(seg) > maxField {
			r.err = fmt.Errorf("%w: a field value over %d bytes", ErrEventTooLarge, maxField)
			return
		}
		r.field = append(r.field, seg...)
	}
	if r.err == nil && r.lineLen > r.max+lineSlack {
		r.err = fmt.Errorf("%w: a line over the %d-byte limit", ErrEventTooLarge, r.max)
	}
}

// fieldKind is the kind of the line whose name was just read. A line that
// begins with a colon, a comment, has the empty name.
func (r *sseReader) fieldKind() lineKind {
	switch string(r.name[:r.nameLen]) {
	case "data":
		return lineData
	case "event":
		return lineEvent
	case "id":
		return lineID
	case "retry":
		return lineRetry
	}
	return lineSkip
}

// endLine processes the end of the line being read, and dispatches the
// event at a blank line: ok is false when the event's data is empty and
// nothing is dispatched.
func (r *sseReader) endLine() (ev event, ok bool) {
	kind := r.kind
	if kind == lineName {
		// No colon: the whole line is the name and the value is empty.
		kind = r.fieldKind()
		if kind == lineData {
			r.startData()
		}
		if r.nameLen == 0 {
			kind = lineName // a blank line
		}
	}
	switch kind {
	case lineName:
		ev, ok = r.dispatch()
	case lineData:
		r.endData()
	case lineEvent:
		if string(r.field) == "message" {
			r.typ = "message"
		} else {
			r.typ = string(validUTF8(r.field))
		}
	case lineID:
		if bytes.IndexByte(r.field, 0) < 0 {
			r.idBuf, r.hasID = string(validUTF8(r.field)), true
		}
	case lineRetry:
		if ms, ok := parseDigits(r.field); ok && ms <= int64(1<<63-1)/int64(time.Millisecond) {
			r.retry, r.hasRet = time.Duration(ms)*time.Millisecond, true
		}
	}
	r.newLine()
	return ev, ok
}

// newLine readies the reader for the next line.
func (r *sseReader) newLine() {
	r.kind, r.nameLen, r.lineLen, r.strip = lineName, 0, 0, false
	r.field = r.field[:0]
}

// startData begins a data line's value: after a line break, if the event
// has data already.
func (r *sseReader) startData() {
	if r.hasData {
		r.appendData([]byte{'\n'})
	}
	r.valStart = len(r.data) + r.partsLen // where it will be once joined
}

// endData ends a data line, replacing invalid UTF-8 in its value.
func (r *sseReader) endData() {
	if r.err != nil {
		return
	}
	if !r.validFrom(r.valStart) {
		r.join()
		fixed := validUTF8(r.data[r.valStart:])
		r.data = r.data[:r.valStart]
		r.appendData(fixed)
	}
	r.hasData = true
}

// appendData adds p to the event's data, within the limit.
func (r *sseReader) appendData(p []byte) {
	if r.err != nil || len(p) == 0 {
		return
	}
	need := len(r.data) + r.partsLen + len(p)
	if need > r.max {
		r.err = fmt.Errorf("%w: data over the %d-byte limit", ErrEventTooLarge, r.max)
		return
	}
	if r.partsLen == 0 && need <= cap(r.data) {
		r.data = append(r.data, p...)
		return
	}
	if r.partsLen == 0 && (cap(r.data) == 0 || need <= dataPart) {
		r.grow(need)
		r.data = append(r.data, p...)
		return
	}
	r.appendPart(p)
}

// grow gives the data buffer room for need bytes (need <= r.max):
// exactly need for a first piece, which is often the whole event; then
// powers of two up to dataPart.
func (r *sseReader) grow(need int) {
	c := need
	if cap(r.data) > 0 {
		c = 1 << bits.Len(uint(max(2*cap(r.data), need, 64)-1)) // a power of two, at least twice the last
	}
	c = min(c, r.max)
	b := make([]byte, len(r.data), c)
	copy(b, r.data)
	r.data = b
}

// dispatch ends the event at a blank line; ok is false when there was no
// data line and nothing is dispatched. The data stays in r.data.
func (r *sseReader) dispatch() (ev event, ok bool) {
	r.lastID = r.idBuf
	if r.hasData {
		r.join()
		ev, ok = event{Type: r.typ, HasID: r.hasID}, true
		if r.hasID {
			ev.ID = r.idBuf
		}
	}
	r.typ, r.hasID, r.hasData = "", false, false
	return ev, ok
}

// endOfStream discards the event and the line the end of the stream cut
// off.
func (r *sseReader) endOfStream() {
	r.newLine()
	r.parts, r.partsLen = nil, 0
	r.typ, r.hasID, r.hasData = "", false, false
	if cap(r.data) > keepBuf {
		r.data = nil
	} else {
		r.data = r.data[:0]
	}
}

// The data of a large event, gathered in parts: a buffer that doubles
// each time it fills costs three times the data on average (four at
// worst) before it is handed over; parts joined once when the event is
// dispatched cost twice, plus what the last part has room for. Parts of
// one fixed size would waste nothing, but a large event would take many
// (32 for 1 MiB), each an allocation; a part of a quarter of the data so
// far wastes at most a quarter, in a number of parts that grows with the
// logarithm of the size (13 for 1 MiB, 25 for 16 MiB).

// dataPart is the size past which an event's data grows in parts, rather
// than in one buffer that doubles, and the least size of a part.
const dataPart = 32 << 10

// partSize is the size of the next part: a quarter of the data so far,
// at least dataPart, and never past the limit.
func (r *sseReader) partSize() int {
	have := len(r.data) + r.partsLen
	return min(max(dataPart, have/4), r.max-have)
}

// appendPart adds p to the parts of a large event's data, which
// appendData checked fits within the limit.
func (r *sseReader) appendPart(p []byte) {
	for len(p) > 0 {
		n := len(r.parts)
		if n == 0 || len(r.parts[n-1]) == cap(r.parts[n-1]) {
			r.parts = append(r.parts, make([]byte, 0, r.partSize()))
			n++
		}
		last := &r.parts[n-1]
		k := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:k]...)
		r.partsLen += k
		p = p[k:]
	}
}

// join makes the data one buffer again, of exactly its size, and lets
// the parts go.
func (r *sseReader) join() {
	if r.partsLen == 0 {
		return
	}
	b := make([]byte, len(r.data), len(r.data)+r.partsLen)
	copy(b, r.data)
	for i, p := range r.parts {
		b = append(b, p...)
		r.parts[i] = nil // the collector may take it now
	}
	r.data, r.parts, r.partsLen = b, r.parts[:0], 0
}

// validFrom reports whether the data from offset start on is valid UTF-8,
// the parts included, without joining them.
func (r *sseReader) validFrom(start int) bool {
	if r.partsLen == 0 {
		return utf8.Valid(r.data[start:])
	}
	var c utf8Check
	if start < len(r.data) {
		c.add(r.data[start:])
		start = 0
	} else {
		start -= len(r.data)
	}
	for _, p := range r.parts {
		if start >= len(p) {
			start -= len(p)
			continue
		}
		c.add(p[start:])
		start = 0
	}
	return c.valid()
}

// utf8Check validates UTF-8 that comes in pieces: a character may be
// split between two.
type utf8Check struct {
	tail    [utf8.UTFMax]byte // the start of a character the last piece cut off
	n       int
	invalid bool
}

func (c *utf8Check) add(p []byte) {
	for c.n > 0 && len(p) > 0 && !c.invalid {
		c.tail[c.n], c.n, p = p[0], c.n+1, p[1:]
		if utf8.FullRune(c.tail[:c.n]) {
			r, size := utf8.DecodeRune(c.tail[:c.n])
			c.invalid = r == utf8.RuneError && size <= 1 || size != c.n
			c.n = 0
		}
	}
	if c.invalid || len(p) == 0 {
		return
	}
	cut := len(p)
	for i := len(p) - 1; i >= 0 && i > len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				cut = i
			}
			break
		}
	}
	c.invalid = !utf8.Valid(p[:cut])
	c.n = copy(c.tail[:], p[cut:])
}

// valid reports whether every piece so far made valid UTF-8, with no
// character left unfinished.
func (c *utf8Check) valid() bool { return !c.invalid && c.n == 0 }

// The reader's byte-level helpers: where a line ends,
// a retry field's digits, and the replacement of invalid UTF-8.

// indexLineEnd returns the index of the first CR or LF in b, or -1.
func indexLineEnd(b []byte) int {
	n := bytes.IndexByte(b, '\n')
	if n < 0 {
		n = len(b)
	}
	if cr := bytes.IndexByte(b[:n], '\r'); cr >= 0 {
		return cr
	}
	if n == len(b) {
		return -1
	}
	return n
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
