package webui

import (
	"fmt"

	"github.com/plainmcp/plainmcp/internal/logging"
)

// stderrLines is the logger a page's server runs with: it takes the stdio
// transport's "server stderr" records (one a line, at Debug, with the
// line under "line") for the page, and passes every record on to next,
// the host's logger, if it has one.
type stderrLines struct {
	in     *Inbox
	server string
	next   logging.Logger // nil: the page only
}

func (h *stderrLines) Debug(msg string, args ...any) {
	if msg == "transport: server stderr" {
		for i := 0; i+1 < len(args); i += 2 {
			if args[i] == "line" {
				h.in.add(Event{Server: h.server, Kind: "stderr", Text: fmt.Sprint(args[i+1])})
			}
		}
	}
	if h.next != nil {
		h.next.Debug(msg, args...)
	}
}

func (h *stderrLines) Info(msg string, args ...any) {
	if h.next != nil {
		h.next.Info(msg, args...)
	}
}

func (h *stderrLines) Warn(msg string, args ...any) {
	if h.next != nil {
		h.next.Warn(msg, args...)
	}
}

func (h *stderrLines) Error(msg string, args ...any) {
	if h.next != nil {
		h.next.Error(msg, args...)
	}
}
