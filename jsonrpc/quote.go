package jsonrpc

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// JSON strings in and out: the envelope's method and keys are read with
// unquote, and method names and error messages written with appendString,
// without a trip through reflection.

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
