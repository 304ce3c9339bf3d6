package streamhttp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

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
