package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// TestProgressLineIsGoneBeforeTheResult runs a call with progress at a
// terminal where stdout and stderr are one screen, as they are for a
// person, and reads the screen back: the result must sit on a line of its
// own, not after the last progress report.
func TestProgressLineIsGoneBeforeTheResult(t *testing.T) {
	dir := demoDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var term syncBuffer
	c := &cli{dir: dir, serve: demoInProcess(t), stdin: strings.NewReader(""), stdout: &term, stderr: &term, terminal: true}
	code := c.run(ctx, []string{"--progress", "call", "mcp__demo__slow", `{"steps": 4, "delayMs": 5}`})
	raw := term.String()
	if code != exitOK {
		t.Fatalf("exit %d:\n%q", code, raw)
	}
	if !strings.Contains(raw, "\r\033[K") {
		t.Fatalf("no progress line was drawn: %q", raw)
	}
	lines := screen(raw)
	if len(lines) == 0 || lines[0] != "done after 4 steps" {
		t.Errorf("the screen reads %q, want the result alone on the first line", lines)
	}
}

func TestScreen(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"abc\n", "abc"},
		{"\r\033[Kprogress 1\r\033[Kprogress 2\r\033[Kdone\n", "done"},
		{"progress 2/2done\n", "progress 2/2done"},
		{"long line\rab\n", "abng line"},
	} {
		got := strings.Join(screen(tc.raw), "|")
		if got != tc.want {
			t.Errorf("screen(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// screen is what a terminal shows after raw is written to it, line by
// line, for the three controls mcpc uses: carriage return, erase to the
// end of the line (ESC [ K) and newline.
func screen(raw string) []string {
	var lines []string
	var cur []rune
	col := 0
	for i := 0; i < len(raw); {
		switch {
		case strings.HasPrefix(raw[i:], "\033[K"):
			cur = cur[:col]
			i += 3
		case raw[i] == '\r':
			col = 0
			i++
		case raw[i] == '\n':
			lines = append(lines, string(cur))
			cur, col = nil, 0
			i++
		default:
			r, n := utf8.DecodeRuneInString(raw[i:])
			if col < len(cur) {
				cur[col] = r
			} else {
				cur = append(cur, r)
			}
			col++
			i += n
		}
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// syncBuffer is one screen that stdout and stderr share.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
