package streamhttp

import (
	"bytes"
	"fmt"
	"math/bits"
	"time"
)

// The line-level half of the event stream reader: a line's field name and
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
