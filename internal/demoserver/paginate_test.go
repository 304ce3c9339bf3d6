package demoserver

import (
	"errors"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestPage(t *testing.T) {
	for _, tc := range []struct {
		cursor             string
		total, size        int
		start, end         int
		wantNext, wantFail bool
	}{
		{"", 0, 10, 0, 0, false, false},
		{"", 5, 10, 0, 5, false, false},
		{"", 10, 10, 0, 10, false, false},
		{"", 11, 10, 0, 10, true, false},
		{encodeCursor(10), 11, 10, 10, 11, false, false},
		{encodeCursor(11), 11, 10, 11, 11, false, false}, // the list shrank: an empty last page
		{encodeCursor(12), 11, 10, 0, 0, false, true},
		{"garbage!", 11, 10, 0, 0, false, true},
	} {
		start, end, next, err := page("m", tc.cursor, tc.total, tc.size)
		if tc.wantFail {
			if !errors.Is(err, jsonrpc.ErrInvalidParams) {
				t.Errorf("page(%q, %d, %d): err = %v, want invalid params", tc.cursor, tc.total, tc.size, err)
			}
			continue
		}
		if err != nil || start != tc.start || end != tc.end || (next != "") != tc.wantNext {
			t.Errorf("page(%q, %d, %d) = %d, %d, %q, %v; want %d, %d, next %v",
				tc.cursor, tc.total, tc.size, start, end, next, err, tc.start, tc.end, tc.wantNext)
		}
		if next != "" {
			if n, ok := decodeCursor(next); !ok || n != end {
				t.Errorf("next cursor %q decodes to %d, %v; want %d", next, n, ok, end)
			}
		}
	}
}

func FuzzCursor(f *testing.F) {
	for _, s := range []string{"", encodeCursor(0), encodeCursor(123456), "b2Zmc2V0Oi0x", "%%%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cursor string) {
		n, ok := decodeCursor(cursor)
		if !ok {
			return
		}
		if n < 0 {
			t.Fatalf("decodeCursor(%q) = %d, a negative offset", cursor, n)
		}
		if m, ok := decodeCursor(encodeCursor(n)); !ok || m != n {
			t.Fatalf("offset %d does not survive a round trip: %d, %v", n, m, ok)
		}
	})
}
