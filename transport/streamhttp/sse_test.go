package streamhttp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// sseResult is everything an sseReader reports for one input.
type sseResult struct {
	Events   []event
	LastID   string
	Retry    time.Duration
	HasRetry bool
	Err      string // "" at a clean io.EOF
}

// readSSE reads r to its end with Next, and releases the reader.
func readSSE(r io.Reader, max int) sseResult {
	sr := newSSEReader(r, max)
	defer sr.release()
	var res sseResult
	for {
		ev, err := sr.Next()
		if err != nil {
			if err != io.EOF {
				res.Err = err.Error()
			}
			break
		}
		res.Events = append(res.Events, ev)
	}
	res.LastID = sr.LastEventID()
	res.Retry, res.HasRetry = sr.Retry()
	return res
}

// readSSEBytes is readSSE with NextBytes, the data put back into the
// events for comparison.
func readSSEBytes(r io.Reader, max int) sseResult {
	sr := newSSEReader(r, max)
	defer sr.release()
	var res sseResult
	for {
		ev, data, err := sr.NextBytes()
		if err != nil {
			if err != io.EOF {
				res.Err = err.Error()
			}
			break
		}
		if ev.Data != "" {
			res.Err = "NextBytes filled ev.Data"
			break
		}
		ev.Data = string(data)
		res.Events = append(res.Events, ev)
	}
	res.LastID = sr.LastEventID()
	res.Retry, res.HasRetry = sr.Retry()
	return res
}

func TestSSEReader(t *testing.T) {
	msg := func(data string) event { return event{Data: data} }
	for _, tc := range []struct {
		name string
		in   string
		want sseResult
	}{
		{"one event", "data: hello\n\n", sseResult{Events: []event{msg("hello")}}},
		{"multi-line data", "data: a\ndata: b\ndata: c\n\n", sseResult{Events: []event{msg("a\nb\nc")}}},
		{"CRLF", "data: a\r\ndata: b\r\n\r\n", sseResult{Events: []event{msg("a\nb")}}},
		{"CR", "data: a\rdata: b\r\r", sseResult{Events: []event{msg("a\nb")}}},
		{"mixed endings", "data: a\r\n\rdata: b\n\r\ndata: c\r\r\n", sseResult{Events: []event{msg("a"), msg("b"), msg("c")}}},
		{"CR CR is two lines", "data: a\r\r\ndata: b\n\n", sseResult{Events: []event{msg("a"), msg("b")}}},
		{"two events", "data: 1\n\ndata: 2\n\n", sseResult{Events: []event{msg("1"), msg("2")}}},
		{"comments", ": keep-alive\ndata: x\n:\n\n: bye\n", sseResult{Events: []event{msg("x")}}},
		{"BOM", "\xEF\xBB\xBFdata: x\n\n", sseResult{Events: []event{msg("x")}}},
		{"BOM alone on the first line", "\xEF\xBB\xBF\ndata: x\n\n", sseResult{Events: []event{msg("x")}}},
		{"second BOM is part of a name", "\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\ndata: y\n\n", sseResult{Events: []event{msg("y")}}},
		{"BOM not at the start", "data: x\n\n\xEF\xBB\xBFdata: y\n\n", sseResult{Events: []event{msg("x")}}},
		{"id", "id: 7\ndata: a\n\ndata: b\n\n", sseResult{
			Events: []event{{ID: "7", HasID: true, Data: "a"}, msg("b")}, LastID: "7"}},
		{"id with NUL ignored", "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n", sseResult{
			Events: []event{{ID: "1", HasID: true, Data: "a"}, msg("b")}, LastID: "1"}},
		{"empty id resets", "id: 1\ndata: a\n\nid\ndata: b\n\n", sseResult{
			Events: []event{{ID: "1", HasID: true, Data: "a"}, {HasID: true, Data: "b"}}}},
		{"last id wins", "id: 1\nid: 2\ndata: a\n\n", sseResult{Events: []event{{ID: "2", HasID: true, Data: "a"}}, LastID: "2"}},
		{"id without data updates the last ID", "id: 5\n\n", sseResult{LastID: "5"}},
		{"retry", "retry: 1500\n", sseResult{Retry: 1500 * time.Millisecond, HasRetry: true}},
		{"retry zero", "retry: 0\n", sseResult{HasRetry: true}},
		{"retry invalid", "retry: 15x\nretry: -1\nretry: 1.5\nretry:\nretry:  10\nretry: 99999999999999999999\n", sseResult{}},
		{"invalid retry keeps the valid one", "retry: 200\nretry: x\n", sseResult{Retry: 200 * time.Millisecond, HasRetry: true}},
		{"empty data", "data:\n\n", sseResult{Events: []event{msg("")}}},
		{"two empty data lines", "data\ndata\n\n", sseResult{Events: []event{msg("\n")}}},
		{"no data, no event", "event: x\n\n\n\n", sseResult{}},
		{"event type", "event: endpoint\ndata: /m\n\ndata: y\n\n", sseResult{
			Events: []event{{Type: "endpoint", Data: "/m"}, msg("y")}}},
		{"event type reset by an empty event", "event: x\n\ndata: y\n\n", sseResult{Events: []event{msg("y")}}},
		{"field without colon", "data\n\n", sseResult{Events: []event{msg("")}}},
		{"one space stripped", "data:  two\ndata:none\ndata:\tt\n\n", sseResult{Events: []event{msg(" two\nnone\n\tt")}}},
		{"colons in the value", "data: {\"a\":\"b:c\"}\n\n", sseResult{Events: []event{msg(`{"a":"b:c"}`)}}},
		{"unknown fields", "foo: bar\nDATA: x\ndata : y\ndata: z\n\n", sseResult{Events: []event{msg("z")}}},
		{"EOF mid-event", "data: a\n\ndata: b\n", sseResult{Events: []event{msg("a")}}},
		{"EOF mid-line", "data: a\n\ndata: b", sseResult{Events: []event{msg("a")}}},
		{"EOF after CR", "data: a\r\r", sseResult{Events: []event{msg("a")}}},
		{"id cut off by EOF", "id: 1\ndata: a\n\nid: 2\ndata: b\n", sseResult{
			Events: []event{{ID: "1", HasID: true, Data: "a"}}, LastID: "1"}},
		{"MCP priming event", "id: s1-0\nretry: 3000\ndata:\n\nid: s1-1\ndata: {}\n\n", sseResult{
			Events: []event{{ID: "s1-0", HasID: true}, {ID: "s1-1", HasID: true, Data: "{}"}},
			LastID: "s1-1", Retry: 3 * time.Second, HasRetry: true}},
		{"priming without a data line", "id: p\nretry: 500\n\n", sseResult{LastID: "p", Retry: 500 * time.Millisecond, HasRetry: true}},
		{"invalid UTF-8", "data: a\xffb\xe2\x82C\xed\xa0\x80\n\n", sseResult{Events: []event{msg("a\uFFFDb\uFFFDC\uFFFD\uFFFD\uFFFD")}}},
		{"empty input", "", sseResult{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []struct {
				name string
				r    io.Reader
			}{
				{"whole", strings.NewReader(tc.in)},
				{"bytewise", iotest.OneByteReader(strings.NewReader(tc.in))},
			} {
				if diff := cmp.Diff(tc.want, readSSE(r.r, 0)); diff != "" {
					t.Errorf("%s: (-want +got)\n%s", r.name, diff)
				}
			}
			if diff := cmp.Diff(tc.want, readSSEBytes(iotest.HalfReader(strings.NewReader(tc.in)), 0)); diff != "" {
				t.Errorf("NextBytes: (-want +got)\n%s", diff)
			}
		})
	}
}

func TestSSEReaderBigEvent(t *testing.T) {
	// 4 MiB is plenty: a buffer grown to fit each read allocates over
	// 100× the event at this size, and the test runs under -race.
	const size = 4 << 20
	big := strings.Repeat("x", size)
	in := "id: 1\ndata: " + big + "\r\n\r\ndata: after\n\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := newSSEReader(strings.NewReader(in), 0)
	ev, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Data) != size || ev.Data != big {
		t.Fatalf("got %d bytes of data, want %d", len(ev.Data), size)
	}
	if ev, err := r.Next(); err != nil || ev.Data != "after" {
		t.Fatalf("after the big event: got %+v, %v", ev, err)
	}
	// Linear, not quadratic: the bytes allocated, unlike a duration, do not
	// depend on how loaded the machine is.
	runtime.ReadMemStats(&after)
	// (Growing the buffer by doubling costs about 3.4× today.)
	if n := after.TotalAlloc - before.TotalAlloc; n > 6*size {
		t.Errorf("reading a %d MiB event allocated %d MiB, want at most 6×", size>>20, n>>20)
	}
}

func TestSSEReaderOverLimit(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"one line", "data: " + strings.Repeat("y", 200) + "\n\n"},
		{"many lines", strings.Repeat("data: "+strings.Repeat("y", 30)+"\n", 4) + "\n"},
		{"a line that never ends", "data: ok\n\n:" + strings.Repeat("z", 300)},
		{"a long comment", ":" + strings.Repeat("z", 300) + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newSSEReader(iotest.HalfReader(strings.NewReader(tc.in)), 100)
			var err error
			for err == nil {
				_, err = r.Next()
			}
			if !errors.Is(err, ErrEventTooLarge) || !strings.Contains(err.Error(), "100-byte limit") {
				t.Fatalf("got %v, want ErrEventTooLarge naming the 100-byte limit", err)
			}
			if _, again := r.Next(); again != err {
				t.Errorf("next call: got %v, want the same error", again)
			}
		})
	}
	// Exactly at the limit is fine.
	in := "data: " + strings.Repeat("a", 50) + "\ndata: " + strings.Repeat("b", 49) + "\n\n"
	if got := readSSE(strings.NewReader(in), 100); got.Err != "" || len(got.Events[0].Data) != 100 {
		t.Errorf("100 bytes of data with a limit of 100: got %+v", got)
	}
}

// A read error in the middle of an event is returned, and the next call
// resumes the event where it stopped.
func TestSSEReaderResumesAfterReadError(t *testing.T) {
	errTimeout := errors.New("timeout")
	r := newSSEReader(&chunkReader{chunks: []string{"id: 1\ndata: he", "", "llo\r", "", "\n\r\n"}, err: errTimeout}, 0)
	var errs int
	for {
		ev, err := r.Next()
		if errors.Is(err, errTimeout) {
			errs++
			continue
		}
		if err != nil {
			t.Fatalf("got %v, want an event", err)
		}
		if want := (event{ID: "1", HasID: true, Data: "hello"}); ev != want {
			t.Fatalf("got %+v, want %+v", ev, want)
		}
		break
	}
	if errs != 2 {
		t.Errorf("got %d read errors, want 2", errs)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("got %v, want io.EOF", err)
	}
}

// chunkReader returns its chunks one per Read, and err for an empty chunk.
type chunkReader struct {
	chunks []string
	err    error
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	chunk := c.chunks[0]
	c.chunks = c.chunks[1:]
	if chunk == "" {
		return 0, c.err
	}
	return copy(p, chunk), nil
}

func FuzzSSE(f *testing.F) {
	for _, seed := range []string{
		"data: hello\n\n",
		"id: 1\nretry: 3000\ndata:\n\n",
		"event: endpoint\ndata: /messages?sessionId=abc\n\n",
		"data: a\r\ndata: b\r\r\n:comment\rid: x\x00y\n\n",
		"\xEF\xBB\xBFdata\n\ndata: \xff\xe2\x82\n\n",
		"retry: 12a\nretry: 99999999999999999999\nretry: 7\n",
		"data: " + strings.Repeat("y", 300) + "\n\n",
		"data: cut off",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		const max = 256
		whole := readSSE(bytes.NewReader(in), max)
		bytewise := readSSE(iotest.OneByteReader(bytes.NewReader(in)), max)
		if diff := cmp.Diff(whole, bytewise); diff != "" {
			t.Fatalf("whole vs bytewise (-whole +bytewise)\n%s", diff)
		}
		if diff := cmp.Diff(whole, readSSEBytes(iotest.HalfReader(bytes.NewReader(in)), max)); diff != "" {
			t.Fatalf("Next vs NextBytes (-Next +NextBytes)\n%s", diff)
		}
		ref, over := refSSE(in, max)
		if whole.Err == "" {
			if diff := cmp.Diff(ref, whole); diff != "" {
				t.Fatalf("reference vs reader (-reference +reader)\n%s", diff)
			}
		} else {
			if !over {
				t.Fatalf("error %q on input within the limits", whole.Err)
			}
			n := len(whole.Events)
			if n > len(ref.Events) || n > 0 && cmp.Diff(ref.Events[:n], whole.Events) != "" {
				t.Fatalf("events before the error are not the reference's: reader %+v, reference %+v", whole.Events, ref.Events)
			}
		}
		for _, ev := range whole.Events {
			if strings.ContainsAny(ev.Data+ev.ID+ev.Type, "\r") || strings.ContainsAny(ev.ID+ev.Type, "\n") {
				t.Errorf("line break in event %#v", ev)
			}
			if len(ev.Data) > max {
				t.Errorf("event of %d bytes over the limit of %d", len(ev.Data), max)
			}
			if strings.ToValidUTF8(ev.Data, "") != ev.Data {
				t.Errorf("invalid UTF-8 in %q", ev.Data)
			}
		}
	})
}

// An event near the limit costs about twice the limit, not several times
// it: data lines go straight from the read buffer into the event's
// buffer, a large event in parts joined once into a buffer of its size,
// and NextBytes hands that over without a copy. (Before, one line of 8 MiB
// cost 8× the limit: the line buffer grown by append, the data buffer, the
// string. A buffer grown to the limit in steps cost 1.4× at the limit, but
// four times the size of an event far below it: see
// TestSSEReaderMemoryFarBelowTheLimit.)
func TestSSEReaderMemory(t *testing.T) {
	// 2 MiB is 64 of dataPart, far into the parts: the ratios measured
	// are those at 8 MiB, at a quarter of the work.
	const limit = 2 << 20
	big := strings.Repeat("x", limit-16)
	for _, tc := range []struct {
		name string
		in   string
		size int
	}{
		{"one line", "id: 1\ndata: " + big + "\n\n", len(big)},
		{"one line, CRLF", "data: " + big + "\r\n\r\n", len(big)},
		{"1 KiB lines", strings.Repeat("data: "+strings.Repeat("y", 1023)+"\n", limit/1024) + "\n", limit - 1},
		{"at the limit", "data: " + big + "0123456789abcdef\n\n", limit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, api := range []struct {
				name string
				most float64 // TotalAlloc of one event over the limit
				next func(r *sseReader) (int, error)
			}{
				{"NextBytes", 2.1, func(r *sseReader) (int, error) {
					_, data, err := r.NextBytes()
					return len(data), err
				}},
				{"Next", 3.1, func(r *sseReader) (int, error) { // Data is a copy
					ev, err := r.Next()
					return len(ev.Data), err
				}},
			} {
				for _, rd := range []struct {
					name string
					r    func() io.Reader
				}{
					{"whole", func() io.Reader { return strings.NewReader(tc.in) }},
					{"halves", func() io.Reader { return iotest.HalfReader(strings.NewReader(tc.in)) }},
				} {
					r := newSSEReader(rd.r(), limit)
					var before, after runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&before)
					n, err := api.next(r)
					runtime.ReadMemStats(&after)
					if err != nil || n != tc.size {
						t.Fatalf("%s, %s: got %d bytes, %v; want %d", api.name, rd.name, n, err, tc.size)
					}
					got := float64(after.TotalAlloc-before.TotalAlloc) / limit
					t.Logf("%s, %s: %.2f× the limit", api.name, rd.name, got)
					if got > api.most {
						t.Errorf("%s, %s: reading one event allocated %.2f× the limit, want at most %.2f×", api.name, rd.name, got, api.most)
					}
					if cap(r.data) > keepBuf || cap(r.field) > 2*maxField {
						t.Errorf("%s, %s: the reader keeps %d bytes of data buffer and %d of field buffer after the event",
							api.name, rd.name, cap(r.data), cap(r.field))
					}
					if _, err := r.Next(); err != io.EOF {
						t.Errorf("%s, %s: after the event: got %v, want io.EOF", api.name, rd.name, err)
					}
					r.release()
				}
			}
		})
	}
}

// An event far below the limit, as a large tool result is under the
// default limit, costs about twice its size too (at most 2.25 times: the
// last part, of a quarter of the data before it, may be left empty): a
// buffer that doubles would cost three to four times.
func TestSSEReaderMemoryFarBelowTheLimit(t *testing.T) {
	for _, size := range []int{100 << 10, 1 << 20, 1<<20 + 1<<19} {
		data := strings.Repeat("é", size/2) // two bytes a character: parts split some
		r := newSSEReader(strings.NewReader("data: "+data+"\n\n"), 128<<20)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, got, err := r.NextBytes()
		runtime.ReadMemStats(&after)
		parts := cap(r.parts)
		r.release()
		if err != nil || string(got) != data {
			t.Fatalf("%d bytes: got %d bytes, %v", size, len(got), err)
		}
		most := 2.3
		if size < 4*dataPart {
			most = 2.5 // the buffer doubled up to dataPart, and the waste of the last part
		}
		if parts > 16 {
			t.Errorf("%d bytes: the reader gathered the data in %d parts, want at most 16", size, parts)
		}
		if cost := float64(after.TotalAlloc-before.TotalAlloc) / float64(size); cost > most {
			t.Errorf("%d bytes: reading the event allocated %.2f× its size, want at most %.1f×", size, cost, most)
		}
	}
}

// Data in parts is checked for UTF-8 as a whole: a character split
// between two parts is kept, an invalid byte anywhere is replaced.
func TestSSEReaderPartsUTF8(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want string
	}{
		{"split characters", strings.Repeat("x", dataPart-1) + strings.Repeat("€", dataPart), strings.Repeat("x", dataPart-1) + strings.Repeat("€", dataPart)},
		{"invalid byte in a later part", strings.Repeat("y", 3*dataPart) + "\xff" + "z", strings.Repeat("y", 3*dataPart) + "\uFFFDz"},
		{"cut character at the end", strings.Repeat("y", 2*dataPart) + "\xe2\x82", strings.Repeat("y", 2*dataPart) + "\uFFFD"},
		{"two lines", strings.Repeat("a", dataPart) + "\ndata: " + strings.Repeat("b", dataPart) + "\xff", strings.Repeat("a", dataPart) + "\n" + strings.Repeat("b", dataPart) + "\uFFFD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newSSEReader(iotest.HalfReader(strings.NewReader("data: "+tc.data+"\n\n")), 0)
			defer r.release()
			_, got, err := r.NextBytes()
			if err != nil || string(got) != tc.want {
				t.Errorf("got %d bytes (%v), want %d; equal: %v", len(got), err, len(tc.want), string(got) == tc.want)
			}
		})
	}
}

// An event or retry field over maxField fails, whatever the event limit:
// the last event ID outlives its event.
func TestSSEReaderFieldLimit(t *testing.T) {
	for _, name := range []string{"id", "event", "retry"} {
		in := name + ": " + strings.Repeat("1", maxField+1) + "\ndata: x\n\n"
		got := readSSE(strings.NewReader(in), 1<<20)
		if !strings.Contains(got.Err, ErrEventTooLarge.Error()) || len(got.Events) != 0 {
			t.Errorf("%s of %d bytes: got %+v, want ErrEventTooLarge", name, maxField+1, got)
		}
		in = name + ": " + strings.Repeat("1", maxField) + "\ndata: x\n\n"
		if got := readSSE(strings.NewReader(in), 1<<20); got.Err != "" || len(got.Events) != 1 {
			t.Errorf("%s of %d bytes: got %+v, want one event", name, maxField, got)
		}
	}
}

// Small events reuse the reader's buffer; each costs its Data and little
// more.
func TestSSEReaderSmallEventsAllocate(t *testing.T) {
	in := strings.Repeat("event: message\nid: 7\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n", 100)
	r := newSSEReader(strings.NewReader(""), 0)
	defer r.release()
	src := strings.NewReader(in)
	allocs := testing.AllocsPerRun(20, func() {
		src.Reset(in)
		r.br.Reset(src)
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	})
	// Per event: Data and the id string.
	if allocs > 2*100+2 {
		t.Errorf("100 small events: %v allocations, want at most %d", allocs, 2*100+2)
	}
}

func TestSSEReaderRelease(t *testing.T) {
	r := newSSEReader(strings.NewReader("id: 1\nretry: 10\ndata: a\n\ndata: b\n\n"), 0)
	if ev, err := r.Next(); err != nil || ev.Data != "a" {
		t.Fatalf("got %+v, %v", ev, err)
	}
	r.release()
	r.release() // idempotent
	if r.br != nil || r.data != nil {
		t.Fatal("the released reader still holds its buffers")
	}
	if _, err := r.Next(); !errors.Is(err, errReleased) {
		t.Errorf("Next after release: got %v, want errReleased", err)
	}
	if _, _, err := r.NextBytes(); !errors.Is(err, errReleased) {
		t.Errorf("NextBytes after release: got %v, want errReleased", err)
	}
	if id := r.LastEventID(); id != "1" {
		t.Errorf("LastEventID after release: got %q", id)
	}
	if d, ok := r.Retry(); !ok || d != 10*time.Millisecond {
		t.Errorf("Retry after release: got %v, %v", d, ok)
	}
}

// A buffer back in the pool carries nothing of its last stream into the
// next, even when it was released with unread input in it.
func TestSSEReaderPooledBufferIsClean(t *testing.T) {
	for i := range 50 {
		a := newSSEReader(strings.NewReader(fmt.Sprintf("data: a%d\n\ndata: left over\n\n: more\n", i)), 0)
		if ev, err := a.Next(); err != nil || ev.Data != fmt.Sprintf("a%d", i) {
			t.Fatalf("got %+v, %v", ev, err)
		}
		a.release() // "data: left over" is still buffered
		b := newSSEReader(strings.NewReader("data: b\n\n"), 0)
		got := readSSEFrom(b)
		if diff := cmp.Diff(sseResult{Events: []event{{Data: "b"}}}, got); diff != "" {
			t.Fatalf("a reader on a recycled buffer (-want +got)\n%s", diff)
		}
	}
}

// readSSEFrom reads sr to its end and releases it.
func readSSEFrom(sr *sseReader) sseResult {
	defer sr.release()
	var res sseResult
	for {
		ev, err := sr.Next()
		if err != nil {
			if err != io.EOF {
				res.Err = err.Error()
			}
			break
		}
		res.Events = append(res.Events, ev)
	}
	res.LastID = sr.LastEventID()
	return res
}

// Release while Next waits for input (a stream's Close does that, from
// another goroutine): the buffer goes back only once Next has returned, and
// the reader never reads again.
func TestSSEReaderReleaseWhileReading(t *testing.T) {
	pr, pw := io.Pipe()
	r := newSSEReader(pr, 0)
	type result struct {
		ev  event
		err error
	}
	c := make(chan result, 1)
	go func() {
		ev, err := r.Next()
		c <- result{ev, err}
	}()
	if _, err := pw.Write([]byte("data: par")); err != nil { // Next is now reading
		t.Fatal(err)
	}
	r.release()
	if r.state.Load()&sseBusy == 0 {
		t.Fatal("Next is not running")
	}
	pw.CloseWithError(errors.New("closed")) // as closing the body does
	select {
	case res := <-c:
		if res.err == nil {
			t.Fatalf("Next returned %+v after the stream closed", res.ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next did not return")
	}
	if r.br != nil {
		t.Fatal("the buffer was not given back when Next returned")
	}
	if _, err := r.Next(); !errors.Is(err, errReleased) {
		t.Errorf("Next after release: got %v, want errReleased", err)
	}
}

// Readers come and go on many goroutines at once, each released while or
// after it reads; run with -race.
func TestSSEReaderReleaseConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				want := fmt.Sprintf("%d-%d", i, j)
				pr, pw := io.Pipe()
				r := newSSEReader(pr, 0)
				go func() {
					pw.Write([]byte("data: " + want + "\n\ndata: more"))
					pw.Close()
				}()
				ev, err := r.Next()
				if err != nil || ev.Data != want {
					t.Errorf("got %+v, %v; want %q", ev, err, want)
					return
				}
				done := make(chan struct{})
				go func() { // the second Next races with release
					defer close(done)
					r.Next()
				}()
				r.release()
				<-done
				pr.Close()
			}
		}()
	}
	wg.Wait()
}

// refSSE is the standard's algorithm written plainly, without limits, as a
// reference for FuzzSSE: split the whole input into lines, then process
// each. over reports whether the input breaks one of the reader's limits:
// a line over max+lineSlack, a field value over maxField, or an event's
// data (complete or not) over max.
func refSSE(in []byte, max int) (res sseResult, over bool) {
	in = bytes.TrimPrefix(in, []byte("\xEF\xBB\xBF"))
	var lines [][]byte
	for {
		i := bytes.IndexAny(in, "\r\n")
		if i < 0 {
			if len(in) > max+lineSlack {
				over = true
			}
			break // an unterminated line is no line
		}
		lines = append(lines, in[:i])
		if in[i] == '\r' && i+1 < len(in) && in[i+1] == '\n' {
			i++
		}
		in = in[i+1:]
	}
	var data []byte
	var typ, idBuf string
	hasData, hasID := false, false
	for _, line := range lines {
		if len(line) > max+lineSlack {
			over = true
		}
		if len(line) == 0 {
			res.LastID = idBuf
			if hasData {
				ev := event{Type: typ, Data: string(data[:len(data)-1]), HasID: hasID}
				if hasID {
					ev.ID = idBuf
				}
				res.Events = append(res.Events, ev)
			}
			data, typ, hasData, hasID = nil, "", false, false
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "data":
			data = append(append(data, validUTF8(value)...), '\n')
			hasData = true
			if len(data)-1 > max {
				over = true
			}
		case "event":
			typ = string(validUTF8(value))
			over = over || len(value) > maxField
		case "id":
			over = over || len(value) > maxField
			if bytes.IndexByte(value, 0) < 0 {
				idBuf, hasID = string(validUTF8(value)), true
			}
		case "retry":
			over = over || len(value) > maxField
			if ms, ok := parseDigits(value); ok && ms <= int64(1<<63-1)/int64(time.Millisecond) {
				res.Retry, res.HasRetry = time.Duration(ms)*time.Millisecond, true
			}
		}
	}
	// The data of an event the end cut off counts against the limit too:
	// the reader fails as soon as it has read too much.
	tail := in
	if v, ok := bytes.CutPrefix(tail, []byte("data:")); ok && len(data)+len(v) > max {
		over = true
	}
	return res, over
}

// FuzzUTF8Pieces checks utf8Check, which validates UTF-8 that comes in
// pieces, against utf8.Valid on the whole: the input is cut where the
// fuzzer says.
func FuzzUTF8Pieces(f *testing.F) {
	for _, s := range []string{"héllo€𝄞", "\xe2\x82", "a\xffb", "€€€", "\xf0\x9d\x84\x9e\xed\xa0\x80"} {
		f.Add([]byte(s), []byte{1, 2, 3})
	}
	f.Fuzz(func(t *testing.T, in, cuts []byte) {
		var c utf8Check
		rest := in
		for _, n := range cuts {
			k := min(int(n)%8, len(rest))
			c.add(rest[:k])
			rest = rest[k:]
		}
		c.add(rest)
		if got, want := c.valid(), utf8.Valid(in); got != want {
			t.Fatalf("%q cut by %v: valid %v, want %v", in, cuts, got, want)
		}
	})
}
