package streamhttp

import "unicode/utf8"

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
