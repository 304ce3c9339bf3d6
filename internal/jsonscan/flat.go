package jsonscan

import "bytes"

// EachFlatMember hands fn each top-level member of the object frame, key
// and value as written, until fn returns false, and reports whether frame
// is one whole object, as far as a walk that does not descend into values
// can tell. Unlike EachMember it has no depth limit: an object or array
// value is skipped by counting brackets, whatever its depth, so it still
// finds the members of a frame nested too deep to check (jsonrpc reads the
// id of such an answer, so its call ends at once).
func EachFlatMember(frame []byte, fn func(key, value []byte) bool) bool {
	i := SkipSpace(frame, 0)
	if i >= len(frame) || frame[i] != '{' {
		return false
	}
	if i = SkipSpace(frame, i+1); i < len(frame) && frame[i] == '}' {
		return SkipSpace(frame, i+1) == len(frame)
	}
	for {
		key, value, end, ok := flatMember(frame, i)
		if !ok || !fn(key, value) {
			return false
		}
		switch i = SkipSpace(frame, end); {
		case i < len(frame) && frame[i] == '}':
			return SkipSpace(frame, i+1) == len(frame)
		case i >= len(frame) || frame[i] != ',':
			return false
		}
		i = SkipSpace(frame, i+1)
	}
}

// flatMember reads the member whose key starts at frame[i]: its key and
// value as written, and the index just past the value.
func flatMember(frame []byte, i int) (key, value []byte, end int, ok bool) {
	if i >= len(frame) || frame[i] != '"' {
		return nil, nil, 0, false
	}
	kEnd, _, err := SkipString(frame, i)
	if err != nil {
		return nil, nil, 0, false
	}
	key = frame[i:kEnd]
	if i = SkipSpace(frame, kEnd); i >= len(frame) || frame[i] != ':' {
		return nil, nil, 0, false
	}
	i = SkipSpace(frame, i+1)
	if end, ok = skipFlat(frame, i); !ok {
		return nil, nil, 0, false
	}
	return key, frame[i:end], end, true
}

// skipFlat returns the end of the value at b[i] like SkipValue, but
// without recursion: an object or array is skipped by counting brackets,
// whatever its depth, checking no more than that they balance.
func skipFlat(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		end, _, err := SkipString(b, i)
		return end, err == nil
	case '{', '[':
		return skipBrackets(b, i)
	}
	j := i
	for j < len(b) && bytes.IndexByte([]byte(",}] \t\r\n"), b[j]) < 0 {
		j++
	}
	return j, j > i
}

// skipBrackets skips the object or array at b[i], strings inside
// included.
func skipBrackets(b []byte, i int) (int, bool) {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			end, _, err := SkipString(b, j)
			if err != nil {
				return 0, false
			}
			j = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return j + 1, true
			}
		}
	}
	return 0, false
}
