// Package redact takes secrets out of text a peer sent back before it is
// quoted in an error or a log: a token endpoint that echoes the request
// it got, an error body that repeats a header. It is the machinery the
// transports, the OAuth client and the bridge share; a [secret.Value]
// prints safely by itself and needs none of it.
package redact

import (
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/secret"
)

// MinLen is the length in bytes from which [Text] takes a secret out of
// text. Shorter ones would not protect anything worth the name (a
// credential of one to three bytes is guessed in a moment) and would
// wreck the text: a header "X-Debug: 1" would turn every "1" of a status
// line into "[redacted]", and the places of the marks would tell the
// value anyway.
const MinLen = 4

// Text returns text with every occurrence of each secret of at least
// [MinLen] bytes replaced by [secret.Placeholder]: for text a peer sent that may
// echo what it was sent (an error body, an error_description), before it
// is quoted in an error or a log. Longer secrets go first, so one that
// holds another leaves nothing of itself behind.
func Text(text string, secrets ...secret.String) string {
	return redact(text, false, secrets)
}

// Cut is [Text] for text that was cut short, as a bounded excerpt
// is: besides whole secrets, the beginning of one (from MinLen bytes on)
// that the text ends with is replaced too.
func Cut(text string, secrets ...secret.String) string {
	return redact(text, true, secrets)
}

func redact(text string, cut bool, secrets []secret.String) string {
	if text == "" || len(secrets) == 0 {
		return text
	}
	vals := make([]string, 0, len(secrets))
	for _, s := range secrets {
		if v := s.Reveal(); len(v) >= MinLen && !strings.Contains(secret.Placeholder, v) {
			vals = append(vals, v)
		}
	}
	slices.SortStableFunc(vals, func(a, b string) int { return len(b) - len(a) })
	for _, v := range vals {
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, secret.Placeholder)
		}
	}
	if !cut {
		return text
	}
	for _, v := range vals {
		for k := min(len(v)-1, len(text)); k >= MinLen; k-- {
			if strings.HasSuffix(text, v[:k]) {
				return text[:len(text)-k] + secret.Placeholder
			}
		}
	}
	return text
}

// Error returns err if its message holds none of secrets, and
// otherwise an error whose message has them redacted as [Text] does and
// which wraps err, so that errors.Is and errors.As still see it.
func Error(err error, secrets ...secret.String) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if red := Text(msg, secrets...); red != msg {
		return &redactedError{msg: red, err: err}
	}
	return err
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
