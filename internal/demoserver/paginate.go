package demoserver

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Cursors are opaque to clients. Ours are the base64 of "offset:N", where N
// is the index of the first item of the next page; the prefix lets us tell
// a cursor of ours from garbage.
const cursorPrefix = "offset:"

func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(offset)))
}

func decodeCursor(cursor string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), cursorPrefix))
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) || n < 0 {
		return 0, false
	}
	return n, true
}

// page returns the bounds [start, end) of the page that cursor points to in
// a list of total items, and the cursor of the page after it ("" on the
// last page). An empty cursor means the first page. A cursor we did not
// make, or one past the end of the list, is an invalid-params error.
func page(method, cursor string, total, size int) (start, end int, next string, err error) {
	if cursor != "" {
		var ok bool
		start, ok = decodeCursor(cursor)
		if !ok || start > total {
			return 0, 0, "", jsonrpc.NewError(jsonrpc.CodeInvalidParams, "%s: invalid cursor %q", method, cursor)
		}
	}
	end = min(start+size, total)
	if end < total {
		next = encodeCursor(end)
	}
	return start, end, next, nil
}

// pageParams are the params of every list request.
type pageParams struct {
	Cursor string `json:"cursor"`
}

// appendPage builds a list result by hand from items that are already
// encoded, to keep long lists (thousands of tools) cheap:
// {"<key>":[item,…],"nextCursor":"…"}.
func appendPage(key string, items []json.RawMessage, next string) json.RawMessage {
	n := len(key) + 32 + len(next)
	for _, it := range items {
		n += len(it) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, `{"`...)
	b = append(b, key...)
	b = append(b, `":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	b = append(b, ']')
	if next != "" {
		// Cursors are base64url: nothing in them needs escaping.
		b = append(b, `,"nextCursor":"`...)
		b = append(b, next...)
		b = append(b, '"')
	}
	return append(b, '}')
}
