package transport

import (
	"bytes"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzLines checks the lineReader against a plain model of the rules: split
// on '\n', drop one '\r', drop lines over the limit, keep the trimmed lines
// that start with '{' or '['. It also checks that the frames, joined with
// newlines, read back as themselves.
func FuzzLines(f *testing.F) {
	for _, seed := range []string{
		"",
		"{}\n",
		"{\"a\":1}\r\n[1,2]\n",
		"banner\n\n  \n{\"a\":1}",
		"{\"a\":\"0123456789abcdefghij0123456789\"}\n{}\r\n",
		"\r\r\n\r{\r\n",
		" \t[ ]\t \n\xff\xfe{\n",
		"{\"a\":\"0123456789abcdef\"}\r",
	} {
		f.Add([]byte(seed), uint8(16))
		f.Add([]byte(seed), uint8(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, limit uint8) {
		max := int(limit) + 1
		want, wantStats := lineModel(in, max)
		for _, size := range bufSizes {
			got, stats := readFrames(t, in, max, size)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("buffer %d, max %d, input %q: frames (-want +got):\n%s", size, max, in, diff)
			}
			if stats != wantStats {
				t.Errorf("buffer %d, max %d, input %q: Stats: got %+v, want %+v", size, max, in, stats, wantStats)
			}
			for _, frame := range got {
				if len(frame) > max || bytes.IndexByte(frame, '\n') >= 0 || (frame[0] != '{' && frame[0] != '[') {
					t.Errorf("bad frame %q (max %d)", frame, max)
				}
			}
			again, _ := readFrames(t, bytes.Join(got, []byte("\n")), max, size)
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("frames joined and read again (-first +second):\n%s", diff)
			}
		}
	})
}

func readFrames(t *testing.T, in []byte, max, size int) ([][]byte, LineStats) {
	lr := newLineReader(bytes.NewReader(in), &LineOptions{MaxLine: max}, size)
	var frames [][]byte
	// Every frame takes at least one input byte, so this bounds the loop.
	for range len(in) + 2 {
		frame, err := lr.Next()
		if err == io.EOF {
			return frames, lr.Stats()
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		frames = append(frames, frame)
	}
	t.Fatalf("input %q: no io.EOF after %d frames", in, len(frames))
	return nil, LineStats{}
}

func lineModel(in []byte, max int) ([][]byte, LineStats) {
	var frames [][]byte
	var stats LineStats
	lines := bytes.Split(in, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // a final '\n' ends a line, it starts none
	}
	for _, line := range lines {
		line = bytes.TrimSuffix(line, []byte("\r"))
		trimmed := bytes.Trim(line, " \t\r")
		switch {
		case len(line) > max:
			stats.Oversized++
		case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
			stats.Frames++
			frames = append(frames, trimmed)
		default:
			stats.Skipped++
		}
	}
	return frames, stats
}
