package streamhttp

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

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

// readSSE reads r to its end.
func readSSE(r io.Reader, max int) sseResult {
	sr := newSSEReader(r, max)
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
		})
	}
}

func TestSSEReaderBigEvent(t *testing.T) {
	const size = 20 << 20
	big := strings.Repeat("x", size)
	in := "id: 1\ndata: " + big + "\r\n\r\ndata: after\n\n"
	start := time.Now()
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
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("reading 20 MiB took %v", d)
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
