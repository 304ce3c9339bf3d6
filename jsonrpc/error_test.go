package jsonrpc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode"
)

// The peer's error message reaches our error text bounded and inert: a
// server must not be able to put terminal control sequences, or megabytes,
// into what a host logs or prints. The message itself stays as it came.
func TestPeerErrorTextIsBoundedAndPrintable(t *testing.T) {
	c, peer, _ := newPair(t, nil)
	msg := "\x1b]0;owned\x07\x1b[2J\rgone\u202e" + strings.Repeat("x", 1<<20)
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "m", nil, nil) }()
	req, _ := Decode([]byte(peer.recv()))
	peer.send(string(AppendError(nil, req.ID, &Error{Code: -32000, Message: msg})))
	err := <-done
	var e *Error
	if !errors.As(err, &e) || e.Message != msg {
		t.Fatalf("err = %.80v; want an *Error with the message as sent", err)
	}
	text := err.Error()
	if len(text) > 2*maxErrorText {
		t.Errorf("error text of %d bytes for a message of %d", len(text), len(msg))
	}
	if i := strings.IndexFunc(text, func(r rune) bool { return unicode.IsControl(r) || r == '\u202e' }); i >= 0 {
		t.Errorf("error text has a control character at %d: %q", i, text[:min(len(text), 80)])
	}
	if !strings.Contains(text, `\x1b]0;owned`) {
		t.Errorf("error text %q does not show the message's start, escaped", text[:min(len(text), 80)])
	}
}
