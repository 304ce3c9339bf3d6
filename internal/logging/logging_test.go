package logging

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func textLogger(buf *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}

func TestSlogLoggerIsALogger(t *testing.T) {
	var buf bytes.Buffer
	var l Logger = textLogger(&buf)
	l.Debug("d", "k", 1)
	l.Info("i")
	l.Warn("w", "err", "boom")
	l.Error("e")
	want := "level=DEBUG msg=d k=1\nlevel=INFO msg=i\nlevel=WARN msg=w err=boom\nlevel=ERROR msg=e\n"
	if buf.String() != want {
		t.Errorf("records:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestUsable(t *testing.T) {
	var nilSlog *slog.Logger
	for _, tc := range []struct {
		name   string
		l      Logger
		usable bool
	}{
		{"nil", nil, false},
		{"nil *slog.Logger", nilSlog, false},
		{"a *slog.Logger", slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)), true},
		{"Discard", Discard{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Usable(tc.l) != nil; got != tc.usable {
				t.Errorf("Usable(%s) != nil is %v, want %v", tc.name, got, tc.usable)
			}
			OrDiscard(tc.l).Warn("must not panic", "k", "v")
		})
	}
}

func TestWithAddsPairsToEveryRecord(t *testing.T) {
	var buf bytes.Buffer
	l := With(textLogger(&buf), "pid", 42)
	l.Info("started", "cmd", "srv")
	l.Debug("line")
	want := "level=INFO msg=started pid=42 cmd=srv\nlevel=DEBUG msg=line pid=42\n"
	if buf.String() != want {
		t.Errorf("records:\n%s\nwant:\n%s", buf.String(), want)
	}
	var nilSlog *slog.Logger
	if With(nilSlog, "pid", 1) != nil {
		t.Error("With of a nil *slog.Logger is not nil")
	}
}

func TestWithDoesNotShareArgsBetweenRecords(t *testing.T) {
	var buf bytes.Buffer
	base := make([]any, 2, 8) // room to append: join must copy, not append in place
	base[0], base[1] = "a", 1
	l := With(textLogger(&buf), base...)
	l.Info("one", "x", 1)
	l.Info("two", "y", 2)
	if got := buf.String(); !strings.Contains(got, "msg=one a=1 x=1\n") || !strings.Contains(got, "msg=two a=1 y=2\n") {
		t.Errorf("records:\n%s", got)
	}
}
