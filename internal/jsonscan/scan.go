// Package jsonscan walks JSON text without decoding it: it finds where a
// value ends, checks that it is well formed, and hands over the members of
// an object as sub-slices of the input. It is the lexer under jsonrpc's
// Decode, which splits a frame into its envelope members in one strict
// pass while params and results stay as bytes until their owner decodes
// them; encoding/json would walk a large result several times (validate,
// copy into a json.RawMessage, then decode).
//
// Its checks follow RFC 8259 as encoding/json applies them: the same
// inputs are valid (FuzzAgreesWithEncodingJSON holds it to that), and
// nesting is bounded at MaxDepth as there, so hostile input cannot
// exhaust the stack. A learner reading jsonrpc needs only the names:
// SkipValue, SkipString, EachMember, EachElement, Unquote.
package jsonscan

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// MaxDepth bounds nesting, as encoding/json does, so hostile input cannot
// exhaust the stack: a value nested deeper is an error.
const MaxDepth = 10000

var errDepth = errors.New("exceeded max depth")

// SkipSpace returns the index of the first byte at or after b[i] that is
// not JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// SkipValue checks the JSON value starting at b[i], whose depth of nesting
// is depth (0 at the top level), and returns the index just past it.
func SkipValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return i, errors.New("unexpected end of input")
	}
	switch c := b[i]; {
	case c == '"':
		end, _, err := SkipString(b, i)
		return end, err
	case c == '{':
		return skipObject(b, i, depth+1)
	case c == '[':
		return SkipArray(b, i, depth+1)
	case c == 't':
		return skipLiteral(b, i, "true")
	case c == 'f':
		return skipLiteral(b, i, "false")
	case c == 'n':
		return skipLiteral(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return skipNumber(b, i)
	default:
		return i, fmt.Errorf("invalid character %q at offset %d", c, i)
	}
}

func skipLiteral(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, fmt.Errorf("invalid literal at offset %d", i)
	}
	return i + len(lit), nil
}

// SkipString checks the string starting at b[i] (its opening quote) and
// returns the index past the closing quote and whether the string
// is "plain": no escapes and no bytes outside printable ASCII, so its Go
// value is exactly the bytes between the quotes.
func SkipString(b []byte, i int) (end int, plain bool, err error) {
	plain = true
	for j := i + 1; j < len(b); {
		// Most bytes of most strings need no decision: skip them in a tight
		// loop.
		for j < len(b) && plainByte[b[j]] {
			j++
		}
		if j >= len(b) {
			break
		}
		c := b[j]
		switch {
		case c == '"':
			return j + 1, plain, nil
		case c == '\\':
			plain = false
			if j+1 >= len(b) {
				return j, false, errors.New("unexpected end of input in string")
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) || !isHex4(b[j+2:j+6]) {
					return j, false, fmt.Errorf("invalid \\u escape at offset %d", j)
				}
				j += 6
			default:
				return j, false, fmt.Errorf("invalid escape at offset %d", j)
			}
		case c < 0x20:
			return j, false, fmt.Errorf("control character in string at offset %d", j)
		case c < utf8.RuneSelf:
			j++
		default:
			// Multi-byte UTF-8 is legal JSON; invalid UTF-8 is tolerated by
			// encoding/json (it substitutes U+FFFD), so only mark it.
			plain = false
			j++
		}
	}
	return len(b), false, errors.New("unexpected end of input in string")
}

// plainByte marks printable ASCII other than '"' and '\\'.
var plainByte = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// skipNumber checks the number starting at b[i] and returns the index just
// past it.
func skipNumber(b []byte, i int) (int, error) {
	start := i
	if b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if i = skipDigits(b, i, 1); i < 0 {
		return start, fmt.Errorf("invalid number at offset %d", start)
	}
	if i < len(b) && b[i] == '.' {
		if i = skipDigits(b, i+1, 1); i < 0 {
			return start, fmt.Errorf("invalid number at offset %d", start)
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i = skipDigits(b, i, 1); i < 0 {
			return start, fmt.Errorf("invalid number at offset %d", start)
		}
	}
	return i, nil
}

// skipDigits returns the offset of the first non-digit at or after i, or
// -1 if fewer than min digits come first.
func skipDigits(b []byte, i, min int) int {
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i-start < min {
		return -1
	}
	return i
}

// SkipArray checks the array starting at b[i] ('[') and returns the index
// just past it.
func SkipArray(b []byte, i, depth int) (int, error) {
	if depth > MaxDepth {
		return i, errDepth
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = SkipValue(b, i, depth); err != nil {
			return i, err
		}
		var done bool
		if i, done, err = afterElement(b, i, ']', "array"); done || err != nil {
			return i, err
		}
	}
}

// afterElement reads what follows an element of an array or a member of
// an object: a comma, after which it returns the index of the next one,
// or the closing bracket, after which it returns the index past it and
// done.
func afterElement(b []byte, i int, closing byte, what string) (next int, done bool, err error) {
	i = SkipSpace(b, i)
	switch {
	case i >= len(b):
		return i, false, fmt.Errorf("unexpected end of input in %s", what)
	case b[i] == ',':
		return SkipSpace(b, i+1), false, nil
	case b[i] == closing:
		return i + 1, true, nil
	}
	return i, false, fmt.Errorf("invalid character %q in %s at offset %d", b[i], what, i)
}

// skipObject checks an object. Its members are walked by EachMember.
func skipObject(b []byte, i, depth int) (int, error) {
	if depth > MaxDepth {
		return i, errDepth
	}
	return EachMember(b, i, depth, nil)
}

// EachMember walks the object starting at b[i] ('{'), calling fn (if not
// nil) with each key's raw text (quotes included) and value's raw text, both
// sub-slices of b; an error from fn ends the walk with that error. It
// returns the index just past the closing brace. depth is the object's own
// depth of nesting (1 for a top-level object).
func EachMember(b []byte, i, depth int, fn func(key, value []byte) error) (int, error) {
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, fmt.Errorf("expected object key at offset %d", i)
		}
		keyEnd, _, err := SkipString(b, i)
		if err != nil {
			return i, err
		}
		key := b[i:keyEnd]
		i = SkipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return i, fmt.Errorf("expected ':' after object key at offset %d", i)
		}
		i = SkipSpace(b, i+1)
		valStart := i
		if i, err = SkipValue(b, i, depth); err != nil {
			return i, err
		}
		if fn != nil {
			if err := fn(key, b[valStart:i]); err != nil {
				return i, err
			}
		}
		var done bool
		if i, done, err = afterElement(b, i, '}', "object"); done || err != nil {
			return i, err
		}
	}
}
