package jsonrpc

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
