package streamhttp

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// The byte-level helpers of the event stream reader: where a line ends,
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
