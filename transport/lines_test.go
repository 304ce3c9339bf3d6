package transport

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bufSizes are the buffer sizes every lineReader test runs with: the real
// one, and one so small that most lines span several buffers.
var bufSizes = []int{readBufSize, 16}

// readAll returns every frame up to io.EOF, failing on any other error.
func readAll(t testing.TB, lr *lineReader) []string {
	t.Helper()
	var frames []string
	for {
		frame, err := lr.Next()
		if err == io.EOF {
			return frames
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		frames = append(frames, string(frame))
	}
}

func TestLineReader(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		max   int
		want  []string
		stats LineStats
	}{
		{
			name:  "frames",
			in:    "{\"a\":1}\n[{\"b\":2}]\n",
			want:  []string{`{"a":1}`, `[{"b":2}]`},
			stats: LineStats{Frames: 2},
		},
		{
			name:  "banners and log lines",
			in:    "my-server v1.0 ready\n{\"a\":1}\nINFO listening\n\x1b[32mok\x1b[0m\n",
			want:  []string{`{"a":1}`},
			stats: LineStats{Frames: 1, Skipped: 3},
		},
		{
			name:  "JSON that is not an object or array",
			in:    "\"string\"\n42\nnull\n{}\n",
			want:  []string{`{}`},
			stats: LineStats{Frames: 1, Skipped: 3},
		},
		{
			name:  "blank lines",
			in:    "\n\n  \t\n{}\n\r\n",
			want:  []string{`{}`},
			stats: LineStats{Frames: 1, Skipped: 4},
		},
		{
			name:  "CRLF",
			in:    "{\"a\":1}\r\n{\"b\":2}\r\n",
			want:  []string{`{"a":1}`, `{"b":2}`},
			stats: LineStats{Frames: 2},
		},
		{
			name:  "surrounding whitespace",
			in:    "  \t{\"a\":1} \t\n",
			want:  []string{`{"a":1}`},
			stats: LineStats{Frames: 1},
		},
		{
			name:  "no trailing newline",
			in:    "{\"a\":1}\n{\"b\":2}",
			want:  []string{`{"a":1}`, `{"b":2}`},
			stats: LineStats{Frames: 2},
		},
		{
			name: "empty input",
		},
		{
			name:  "oversized line then a good one",
			in:    "{\"a\":\"0123456789abcdefghijklmnopqrstuvwxyz\"}\n{\"b\":1}\n",
			max:   10,
			want:  []string{`{"b":1}`},
			stats: LineStats{Frames: 1, Oversized: 1},
		},
		{
			name:  "oversized last line without newline",
			in:    "{\"b\":1}\n{\"a\":\"0123456789abcdefghijklmnopqrstuvwxyz\"}",
			max:   10,
			want:  []string{`{"b":1}`},
			stats: LineStats{Frames: 1, Oversized: 1},
		},
		{
			name:  "oversized banner counts as oversized",
			in:    strings.Repeat("x", 40) + "\n{}\n",
			max:   10,
			want:  []string{`{}`},
			stats: LineStats{Frames: 1, Oversized: 1},
		},
		{
			name:  "exactly the limit",
			in:    "{\"a\":\"12\"}\n{\"a\":\"34\"}\r\n{\"a\":\"56\"}",
			max:   10,
			want:  []string{`{"a":"12"}`, `{"a":"34"}`, `{"a":"56"}`},
			stats: LineStats{Frames: 3},
		},
		{
			name:  "one over the limit",
			in:    "{\"a\":\"123\"}\n{\"a\":\"123\"}\r\n{\"a\":\"123\"}",
			max:   10,
			stats: LineStats{Oversized: 3},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range bufSizes {
				lr := newLineReader(strings.NewReader(tc.in), &LineOptions{MaxLine: tc.max}, size)
				if diff := cmp.Diff(tc.want, readAll(t, lr)); diff != "" {
					t.Errorf("buffer %d: frames (-want +got):\n%s", size, diff)
				}
				if got := lr.Stats(); got != tc.stats {
					t.Errorf("buffer %d: Stats: got %+v, want %+v", size, got, tc.stats)
				}
				// The end is sticky.
				if _, err := lr.Next(); err != io.EOF {
					t.Errorf("buffer %d: Next after the end: got %v, want io.EOF", size, err)
				}
			}
		})
	}
}

func TestLineReaderHugeLineWithDefaultLimit(t *testing.T) {
	huge := `{"x":"` + strings.Repeat("a", bigLine-len(`{"x":""}`)) + `"}`
	in := huge + "\n{\"y\":1}\n"
	lr := newLineReader(strings.NewReader(in), nil, readBufSize)
	if lr.max != DefaultMaxLine {
		t.Fatalf("a nil *LineOptions limits lines to %d bytes, want DefaultMaxLine", lr.max)
	}
	// One run, counted by hand: testing.AllocsPerRun would read the line
	// twice (it warms up first).
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	frames := readAll(t, lr)
	runtime.ReadMemStats(&after)
	allocs := after.Mallocs - before.Mallocs
	if len(frames) != 2 || frames[0] != huge || frames[1] != `{"y":1}` {
		t.Fatalf("got %d frames, want the huge one and {\"y\":1}", len(frames))
	}
	// Growing the line by doubling takes a handful of allocations; copying
	// it anew for every 64 KiB read would take hundreds.
	if allocs > 40 {
		t.Errorf("reading a %d-byte line took %d allocations, want at most 40", len(huge), allocs)
	}
}

func TestLineReaderOneAllocationPerFrame(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}]}}` + "\n"
	lr := newLineReader(strings.NewReader(strings.Repeat(line, 200)), nil, readBufSize)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := lr.Next(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("got %v allocations per frame, want 1", allocs)
	}
}

func TestLineReaderFramesAreNotReused(t *testing.T) {
	for _, size := range bufSizes {
		lr := newLineReader(strings.NewReader("{\"first\":1111111111}\n{\"second\":22222222}\n"), nil, size)
		first, _ := lr.Next()
		kept := string(first)
		lr.Next()
		if string(first) != kept {
			t.Errorf("buffer %d: first frame changed to %s after the next Next", size, first)
		}
	}
}

// scriptReader returns its pieces one Read at a time; an error piece is
// returned as the error.
type scriptReader []any

func (r *scriptReader) Read(p []byte) (int, error) {
	if len(*r) == 0 {
		return 0, io.EOF
	}
	piece := (*r)[0]
	*r = (*r)[1:]
	if err, ok := piece.(error); ok {
		return 0, err
	}
	return copy(p, piece.(string)), nil
}

func TestLineReaderResumesLineAfterError(t *testing.T) {
	errTimeout := errors.New("timeout")
	for _, size := range bufSizes {
		r := &scriptReader{`{"a":`, errTimeout, `1}` + "\n"}
		lr := newLineReader(r, nil, size)
		if _, err := lr.Next(); err != errTimeout {
			t.Fatalf("buffer %d: first Next: got %v, want the reader's error", size, err)
		}
		frame, err := lr.Next()
		if err != nil || string(frame) != `{"a":1}` {
			t.Errorf("buffer %d: second Next: got %s, %v; want the whole line", size, frame, err)
		}
	}
}

func TestLineReaderReports(t *testing.T) {
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	banner := "\x1b[1mWelcome\x1b[0m " + strings.Repeat("long ", 40)
	in := banner + "\n\n" + `{"big":"` + strings.Repeat("z", 300) + "\"}\n{}\n"
	lr := newLineReader(strings.NewReader(in), &LineOptions{MaxLine: 256, Logger: logger}, readBufSize)
	readAll(t, lr)

	for _, want := range []string{
		`msg="transport: skipped a line that is not a JSON-RPC frame" preview=".[1mWelcome.[0m long long`,
		`msg="transport: skipped a blank line"`,
		`msg="transport: dropped a line over the size limit" bytes=310 limit=256 preview="{\"big\":\"zzz`,
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q; it is:\n%s", want, log.String())
		}
	}
	if p := preview([]byte(banner)); len(p) > previewLen || strings.ContainsRune(p, '\x1b') {
		t.Errorf("preview %q: want at most %d bytes and no control characters", p, previewLen)
	}
}

func TestPreviewIsValidText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"tab\there\r", "tab.here."},
		{"bad \xff\xfe utf8", "bad ?? utf8"},
		{strings.Repeat("é", 50), strings.Repeat("é", 40)},
		{strings.Repeat("é", 40) + "x", strings.Repeat("é", 40)},
		{"a" + strings.Repeat("é", 50), "a" + strings.Repeat("é", 39) + "?"},
	} {
		if got := preview([]byte(tc.in)); got != tc.want {
			t.Errorf("preview(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}
