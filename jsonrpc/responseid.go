package jsonrpc

import "bytes"

// responseID reads the id of a frame that Decode refused but that looks
// like a response: a whole object with an id we could have sent (a
// number) and no method. It walks the top level without a depth limit
// (skipFlat counts brackets instead of recursing), so an answer nested too
// deep to decode still ends its call at once, on every transport.
func responseID(frame []byte) (ID, bool) {
	id, ok := PeekResponseID(frame)
	if _, isInt := id.Int64(); !ok || !isInt {
		return ID{}, false
	}
	return id, true
}

// flatMembers hands fn each top-level member of the object frame, key as
// written, until fn returns false, and reports whether frame is one whole
// object, as far as a walk that does not descend into values can tell.
func flatMembers(frame []byte, fn func(key, value []byte) bool) bool {
	i := skipSpace(frame, 0)
	if i >= len(frame) || frame[i] != '{' {
		return false
	}
	for i = skipSpace(frame, i+1); i < len(frame) && frame[i] == '"'; i = skipSpace(frame, i+1) {
		kEnd, _, err := skipString(frame, i)
		if err != nil {
			return false
		}
		key := frame[i:kEnd]
		if i = skipSpace(frame, kEnd); i >= len(frame) || frame[i] != ':' {
			return false
		}
		i = skipSpace(frame, i+1)
		vEnd, ok := skipFlat(frame, i)
		if !ok || !fn(key, frame[i:vEnd]) {
			return false
		}
		if i = skipSpace(frame, vEnd); i < len(frame) && frame[i] == '}' {
			return skipSpace(frame, i+1) == len(frame)
		}
		if i >= len(frame) || frame[i] != ',' {
			return false
		}
	}
	return false
}

// skipFlat returns the end of the value at b[i] like skipValue, but
// without recursion: an object or array is skipped by counting brackets,
// whatever its depth, checking no more than that they balance.
func skipFlat(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		end, _, err := skipString(b, i)
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
			end, _, err := skipString(b, j)
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
