package webui

import (
	"context"
	"log/slog"
)

// stderrLines is a slog.Handler that takes the stdio transport's
// "server stderr" records (one a line, at Debug) for the page, and passes
// every other record on.
type stderrLines struct {
	in     *Inbox
	server string
	next   *slog.Logger
}

func (h *stderrLines) Enabled(ctx context.Context, l slog.Level) bool {
	return l == slog.LevelDebug || h.next != nil && h.next.Enabled(ctx, l)
}

func (h *stderrLines) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "transport: server stderr" {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "line" {
				h.in.add(Event{Server: h.server, Kind: "stderr", Text: a.Value.String()})
			}
			return true
		})
		return nil
	}
	if h.next != nil && h.next.Enabled(ctx, r.Level) {
		return h.next.Handler().Handle(ctx, r)
	}
	return nil
}

func (h *stderrLines) WithAttrs(as []slog.Attr) slog.Handler {
	if h.next == nil {
		return h
	}
	return &stderrLines{in: h.in, server: h.server, next: slog.New(h.next.Handler().WithAttrs(as))}
}

func (h *stderrLines) WithGroup(name string) slog.Handler {
	if h.next == nil {
		return h
	}
	return &stderrLines{in: h.in, server: h.server, next: slog.New(h.next.Handler().WithGroup(name))}
}
