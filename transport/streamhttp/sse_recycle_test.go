package streamhttp

import (
	"bytes"
	"strings"
	"testing"
)

// A recycled reader keeps its data buffer for the next stream, and what
// a caller got of an earlier stream's event stays as it was: a copy, or a
// buffer handed over for good.
func TestRecycledReaderKeepsNoCallerData(t *testing.T) {
	var got [][]byte
	var want []string
	for i, size := range []int{100, 20_000, 50, 40_000, 3} {
		text := strings.Repeat(string(rune('a'+i)), size)
		want = append(want, text)
		r := getSSEReader(strings.NewReader("data: "+text+"\n\n"), 0)
		_, data, err := r.NextBytes()
		putSSEReader(r)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, data)
	}
	for i := range got {
		if !bytes.Equal(got[i], []byte(want[i])) {
			t.Errorf("event %d changed after its reader was recycled: %.20q…", i, got[i])
		}
	}
}

// Events of a few KiB, each the answer on a stream of its own, as a
// paged listing gets them: the reader's buffer is recycled with it, so
// an event costs about its own size.
func BenchmarkRecycledReaderEvents(b *testing.B) {
	stream := "data: " + strings.Repeat("x", 20_000) + "\n\n"
	b.ReportAllocs()
	for range b.N {
		r := getSSEReader(strings.NewReader(stream), 0)
		if _, _, err := r.NextBytes(); err != nil {
			b.Fatal(err)
		}
		putSSEReader(r)
	}
}
