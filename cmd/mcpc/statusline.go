package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/task"
)

// Progress and task status on stderr: one rewritten line at a terminal,
// a line per report elsewhere, JSON events with --json.

func progressLine(p mcpclient.Progress) string {
	msg := clip(clean(p.Message), lineWidth)
	if p.Total > 0 {
		return strings.TrimSpace(fmt.Sprintf("progress: %g/%g %s", p.Progress, p.Total, msg))
	}
	return strings.TrimSpace(fmt.Sprintf("progress: %g %s", p.Progress, msg))
}

// taskLine is a task's state as a status line: the server's words,
// cleaned of control characters.
func taskLine(t task.Task) string {
	return strings.TrimSpace(fmt.Sprintf("task %s: %s %s", clean(truncateText(t.ID, 40)), clean(t.Status), clean(t.StatusMessage)))
}

func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// progressPrinter returns ctx with its calls showing their progress and
// their task's status on stderr: with --json, one JSON object per update
// (for scripts); on a terminal, one line rewritten in place and cleared at
// the end; else a line per update. done ends it.
func (e *env) progressPrinter(ctx context.Context) (_ context.Context, done func()) {
	line, done := e.statusLine()
	show := func(p mcpclient.Progress) {
		line(progressLine(p), struct {
			Progress mcpclient.Progress `json:"progress"`
		}{p})
	}
	status := func(t task.Task) {
		type taskJSON struct {
			ID            string `json:"taskId"`
			Status        string `json:"status"`
			StatusMessage string `json:"statusMessage,omitempty"`
		}
		line(taskLine(t), struct {
			Task taskJSON `json:"task"`
		}{taskJSON{t.ID, t.Status, t.StatusMessage}})
	}
	return task.WithStatus(mcpclient.WithProgress(ctx, show), status), done
}

// statusLine prints one status update: v as JSON with --json, else text.
func (e *env) statusLine() (show func(text string, v any), done func()) {
	switch {
	case e.cfg.json:
		return func(_ string, v any) {
			b, _ := json.Marshal(v)
			fmt.Fprintf(e.stderr, "%s\n", b)
		}, func() {}
	case e.cfg.terminal:
		return terminalLine(e.stderr)
	}
	return func(text string, _ any) { fmt.Fprintln(e.stderr, text) }, func() {}
}

// terminalLine draws progress and task status as one line that each
// report rewrites. done clears the line and stops drawing, so it must run
// before the result is printed (stdout and stderr are often the same
// terminal) and a report that arrives late draws nothing. Both are safe to
// call concurrently, and done more than once.
func terminalLine(w io.Writer) (show func(text string, _ any), done func()) {
	var mu sync.Mutex
	drawn, stopped := false, false
	show = func(text string, _ any) {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			drawn = true
			draw(w, "\r\033[K", text)
		}
	}
	done = func() {
		mu.Lock()
		defer mu.Unlock()
		if drawn && !stopped {
			draw(w, "\r\033[K", "")
		}
		stopped = true
	}
	return show, done
}

// draw writes mcpc's own terminal control sequence ctl, then text: on
// mcpc's stderr the control passes its printable filter (which text does
// not); on any other writer both are written as they are.
func draw(w io.Writer, ctl, text string) {
	if l, ok := w.(*lockedWriter); ok {
		l.draw(ctl, text)
		return
	}
	io.WriteString(w, ctl+text)
}
