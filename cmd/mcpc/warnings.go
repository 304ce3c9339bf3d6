package main

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
)

// warnings is a slog.Handler that prints each warning (and worse) as one
// line, "mcpc: warning: message: key=value …".
type warnings struct {
	w     io.Writer
	attrs []slog.Attr
}

func (h *warnings) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *warnings) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString("mcpc: warning: " + r.Message)
	sep := ": "
	add := func(a slog.Attr) bool {
		b.WriteString(sep + a.Key + "=" + a.Value.Resolve().String())
		sep = " "
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	_, err := io.WriteString(h.w, oneLine(b.String())+"\n")
	return err
}

func (h *warnings) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &warnings{w: h.w, attrs: append(slices.Clip(h.attrs), attrs...)}
}

func (h *warnings) WithGroup(string) slog.Handler { return h }
