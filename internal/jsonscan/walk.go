package jsonscan

import (
	"encoding/json"
	"errors"
)

// EachElement walks the array starting at b[i] ('['), which must have been
// checked already (by SkipArray), calling fn with each element's raw text.
func EachElement(b []byte, i int, fn func(elem []byte)) {
	for i = SkipSpace(b, i+1); i < len(b) && b[i] != ']'; {
		start := i
		end, err := SkipValue(b, i, 1)
		if err != nil {
			return
		}
		fn(b[start:end])
		if i = SkipSpace(b, end); i < len(b) && b[i] == ',' {
			i = SkipSpace(b, i+1)
		}
	}
}

// Unquote returns the Go value of a JSON string literal. Plain strings are
// sliced; anything with escapes or non-ASCII goes through encoding/json so
// the result is exactly what it would produce.
func Unquote(raw []byte) (string, error) {
	end, plain, err := SkipString(raw, 0)
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
