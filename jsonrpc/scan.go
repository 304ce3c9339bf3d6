package jsonrpc

import (
	"encoding/json"
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
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return start, fmt.Errorf("invalid number at offset %d", start)
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return start, fmt.Errorf("invalid number at offset %d", start)
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return start, fmt.Errorf("invalid number at offset %d", start)
		}
	}
	return i, nil
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

// unquote returns the Go value of a JSON string literal. Plain strings are
// sliced; anything with escapes or non-ASCII goes through encoding/json so
// the result is exactly what it would produce.
func unquote(raw []byte) (string, error) {
	end, plain, err := skipString(raw, 0)
	if err != nil {
		return "", err
	}
	if end != len(raw) {
		return "", errors.New("trailing data after string")
	}
	if plain {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err = json.Unmarshal(raw, &s)
	return s, err
}

// appendString appends s as a JSON string literal, without HTML escaping.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return appendQuoted(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendQuoted is the slow path of appendString for strings that need
// escaping.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&0xf])
		case r == utf8.RuneError:
			// Invalid UTF-8 becomes U+FFFD, as encoding/json does.
			b = append(b, `\ufffd`...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// Members walks the top level of the JSON object obj without decoding it:
// fn gets each member's key as written (quotes and escapes included, so
// `"name"`) and the span obj[start:end] of its value, in order, and stops
// the walk by returning false. It is the scanner the Conn splits frames
// with, for protocol layers that read or splice a few members of a large
// object (a result's resultType, a params object's _meta) without paying
// for a full decode. It returns an error if obj is not one well-formed
// object, as far as the walk went.
func Members(obj []byte, fn func(key []byte, start, end int) bool) error {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errors.New("jsonrpc: not a JSON object")
	}
	stop := errors.New("stop")
	end, err := eachMember(obj, i, 1, func(key, value []byte) error {
		start := cap(obj) - cap(value) // value is a subslice of obj
		if !fn(key, start, start+len(value)) {
			return stop
		}
		return nil
	})
	switch {
	case err == stop:
		return nil
	case err != nil:
		return fmt.Errorf("jsonrpc: %w", err)
	case skipSpace(obj, end) != len(obj):
		return errors.New("jsonrpc: data after the JSON object")
	}
	return nil
}

// responseID reads the id of a frame that Decode refused but that looks
// like a response: a whole object with an id we could have sent (a
// number) and no method. It walks the top
// level without a depth limit (skipFlat keeps a count, not a stack), so an
// answer nested too deep to decode still ends its call at once, on every
// transport.
func responseID(frame []byte) (ID, bool) {
	var id ID
	found := false
	i := skipSpace(frame, 0)
	if i >= len(frame) || frame[i] != '{' {
		return ID{}, false
	}
	for i = skipSpace(frame, i+1); i < len(frame) && frame[i] == '"'; i = skipSpace(frame, i+1) {
		kEnd, _, err := skipString(frame, i)
		if err != nil {
			return ID{}, false
		}
		key := string(frame[i:kEnd])
		if i = skipSpace(frame, kEnd); i >= len(frame) || frame[i] != ':' {
			return ID{}, false
		}
		i = skipSpace(frame, i+1)
		vEnd, ok := skipFlat(frame, i)
		if !ok {
			return ID{}, false
		}
		switch key {
		case `"method"`:
			return ID{}, false
		case `"id"`:
			v, err := parseID(frame[i:vEnd])
			if _, isInt := v.Int64(); err == nil && isInt {
				id, found = v, true
			}
		}
		if i = skipSpace(frame, vEnd); i < len(frame) && frame[i] == '}' {
			// Only a whole object counts: a truncated frame's id is not
			// one to trust.
			return id, found && skipSpace(frame, i+1) == len(frame)
		}
		if i >= len(frame) || frame[i] != ',' {
			return ID{}, false
		}
	}
	return ID{}, false
}

// skipFlat returns the end of the value at b[i] like skipValue, but
// without recursion: it counts brackets, whatever their depth, and checks
// no more than that they balance.
func skipFlat(b []byte, i int) (int, bool) {
	depth := 0
	for j := i; j < len(b); {
		switch c := b[j]; {
		case c == '"':
			end, _, err := skipString(b, j)
			if err != nil {
				return 0, false
			}
			j = end
		case c == '{' || c == '[':
			depth++
			j++
		case c == '}' || c == ']':
			if depth == 0 {
				return j, j > i
			}
			depth--
			j++
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			return j, j > i
		default:
			j++
		}
		if depth == 0 && j > i && (b[j-1] == '}' || b[j-1] == ']' || b[j-1] == '"') {
			return j, true
		}
	}
	return 0, false
}
