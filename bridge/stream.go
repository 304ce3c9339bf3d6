package bridge

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
)

type streamKey struct{}

// WithStream returns a context under which the adapters ask their provider
// to stream its answer (server-sent events) and hand onText each piece of
// the model's text as it arrives, before CreateMessage returns the whole
// answer. onText is called from the goroutine of CreateMessage, in order.
// A provider that answers with one JSON body anyway is read as such, its
// text handed to onText at once.
func WithStream(ctx context.Context, onText func(text string)) context.Context {
	return context.WithValue(ctx, streamKey{}, onText)
}

func streamFrom(ctx context.Context) func(string) {
	f, _ := ctx.Value(streamKey{}).(func(string))
	return f
}

// isEventStream reports whether a Content-Type is text/event-stream.
func isEventStream(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "text/event-stream")
}

// streamFailure is a provider's error event in a stream. Its message is
// quoted cut short (excerpt), so the key must be cut out of it first,
// which only the caller can do (see caller.quotable): cutting first
// could leave the start of the key at the end of the quotation, where
// no redaction finds it.
type streamFailure struct{ msg string }

func (e *streamFailure) Error() string {
	if q := excerpt(e.msg); q != "" {
		return "the provider failed mid-stream: " + q
	}
	return "the provider failed mid-stream"
}

// quotable is an error from decoding an answer, fit to quote: without
// the URL a *url.Error carries, and a stream's failure with the key cut
// out of the provider's message before it is cut short.
func (c *caller) quotable(err error) error {
	var sf *streamFailure
	if errors.As(err, &sf) {
		return &streamFailure{msg: c.redact(sf.msg)}
	}
	return unwrapURL(err)
}

// errStreamDone ends readSSE early, without an error.
var errStreamDone = errors.New("stream done")

// readSSE reads a text/event-stream, calling f with each event's type and
// its data lines joined by newlines; comments, ids and retry fields are
// ignored. It returns nil at the end of the stream or when f returns
// errStreamDone, and f's other errors as they are.
func readSSE(r io.Reader, f func(event, data string) error) error {
	br := bufio.NewReader(r)
	var event string
	var data []string
	dispatch := func() error {
		if data == nil {
			event = ""
			return nil
		}
		err := f(event, strings.Join(data, "\n"))
		event, data = "", nil
		return err
	}
	for {
		line, rerr := br.ReadString('\n')
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		var err error
		switch {
		case line == "" && rerr == nil:
			err = dispatch()
		case strings.HasPrefix(line, ":"):
		case line != "":
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "event":
				event = value
			case "data":
				data = append(data, value)
			}
		}
		if err == nil && rerr == io.EOF {
			err = dispatch()
		}
		if errors.Is(err, errStreamDone) {
			return nil
		}
		if err != nil {
			return err
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}
