// Package logging is the logger plainmcp's options take: the four leveled
// methods of log/slog's *slog.Logger, as an interface. A host passes its
// *slog.Logger (or anything with these methods) and reads plainmcp's
// records there, with their key-value pairs as slog reads them.
//
// Why not *slog.Logger itself: importing log/slog runs its init, which
// builds slog's default logger and so links its text handler and package
// log, about 115 KB of a stripped binary. A stdio-only client would carry
// them whether it logs or not (make size measures it). With this
// interface a program links slog only if it uses slog.
package logging

import "reflect"

// Logger receives records at four levels. Each takes a message and
// alternating keys and values, as *slog.Logger's methods of the same
// names do. It is called from any goroutine.
type Logger interface {
	Debug(msg string, args ...any)
	Info(msg string, args ...any)
	Warn(msg string, args ...any)
	Error(msg string, args ...any)
}

// Usable returns l, or nil when l is nil or holds a nil pointer (a nil
// *slog.Logger stored in an options field is not nil as an interface, and
// its methods would panic): code that logs checks for nil only.
func Usable(l Logger) Logger {
	if l == nil {
		return nil
	}
	if v := reflect.ValueOf(l); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return l
}

// OrDiscard is Usable(l), or a Logger that drops everything in its place.
func OrDiscard(l Logger) Logger {
	if l = Usable(l); l == nil {
		return Discard{}
	}
	return l
}

// Discard drops every record.
type Discard struct{}

func (Discard) Debug(string, ...any) {}
func (Discard) Info(string, ...any)  {}
func (Discard) Warn(string, ...any)  {}
func (Discard) Error(string, ...any) {}

// With returns a Logger that adds args (key-value pairs) to every record
// l receives, as *slog.Logger's With does; nil for an unusable l.
func With(l Logger, args ...any) Logger {
	if l = Usable(l); l == nil {
		return nil
	}
	return &with{next: l, args: args}
}

type with struct {
	next Logger
	args []any
}

// join puts w's pairs before the record's own, in a new slice: records
// may be logged from many goroutines at once.
func (w *with) join(args []any) []any {
	return append(append(make([]any, 0, len(w.args)+len(args)), w.args...), args...)
}

func (w *with) Debug(msg string, args ...any) { w.next.Debug(msg, w.join(args)...) }
func (w *with) Info(msg string, args ...any)  { w.next.Info(msg, w.join(args)...) }
func (w *with) Warn(msg string, args ...any)  { w.next.Warn(msg, w.join(args)...) }
func (w *with) Error(msg string, args ...any) { w.next.Error(msg, w.join(args)...) }
