package jsonrpc

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// This file holds a small JSON scanner used to split a frame into its
// envelope fields without decoding the payload. encoding/json would walk a
// large result several times (validate, then copy into a json.RawMessage,
// then decode); here the envelope is found in one strict pass and params and
// results stay as sub-slices of the frame until their owner decodes them.

// maxDepth bounds nesting, as encoding/json does, so hostile input cannot
// exhaust the stack.
const maxDepth = 10000

var errDepth = errors.New("exceeded max depth")

func skipSpace(b []byte, i int) int {
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

// skipValue checks the JSON value starting at b[i] and returns the index
// just past it.
func skipValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return i, errors.New("unexpected end of input")
	}
	switch c := b[i]; {
	case c == '"':
		end, _, err := skipString(b, i)
		return end, err
	case c == '{':
		return skipObject(b, i, depth+1)
	case c == '[':
		return skipArray(b, i, depth+1)
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

// skipString returns the index past the closing quote and whether the string
// is "plain": no escapes and no bytes outside printable ASCII, so its Go
// value is exactly the bytes between the quotes.
func skipString(b []byte, i int) (end int, plain bool, err error) {
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

func skipArray(b []byte, i, depth int) (int, error) {
	if depth > maxDepth {
		return i, errDepth
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = skipValue(b, i, depth); err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return i, errors.New("unexpected end of input in array")
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return i + 1, nil
		default:
			return i, fmt.Errorf("invalid character %q in array at offset %d", b[i], i)
		}
	}
}

// skipObject checks an object. Its members are walked by eachMember.
func skipObject(b []byte, i, depth int) (int, error) {
	if depth > maxDepth {
		return i, errDepth
	}
	return eachMember(b, i, depth, nil)
}

// eachMember walks the object starting at b[i] ('{'), calling fn (if not
// nil) with each key's raw text (quotes included) and value's raw text. It
// returns the index just past the closing brace.
func eachMember(b []byte, i, depth int, fn func(key, value []byte) error) (int, error) {
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, fmt.Errorf("expected object key at offset %d", i)
		}
		keyEnd, _, err := skipString(b, i)
		if err != nil {
			return i, err
		}
		key := b[i:keyEnd]
		i = skipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return i, fmt.Errorf("expected ':' after object key at offset %d", i)
		}
		i = skipSpace(b, i+1)
		valStart := i
		if i, err = skipValue(b, i, depth); err != nil {
			return i, err
		}
		if fn != nil {
			if err := fn(key, b[valStart:i]); err != nil {
				return i, err
			}
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return i, errors.New("unexpected end of input in object")
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i + 1, nil
		default:
			return i, fmt.Errorf("invalid character %q in object at offset %d", b[i], i)
		}
	}
}
