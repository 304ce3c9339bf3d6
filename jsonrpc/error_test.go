package jsonrpc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// The peer's error message reaches our error text bounded and inert: a
// server must not be able to put terminal control sequences, or megabytes,
// into what a host logs or prints. The message itself stays as it came.
func TestPeerErrorTextIsBoundedAndPrintable(t *testing.T) {
	c, peer, _ := newPair(t, nil)
	msg := "\x1b]0;owned\x07\x1b[2J\rgone\u202e" + strings.Repeat("x", 1<<20)
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "m", nil, nil) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	peer.send(string(rpcwire.AppendError(nil, req.ID, &Error{Code: -32000, Message: msg})))
	err := <-done
	var e *Error
	if !errors.As(err, &e) || e.Message != msg {
		t.Fatalf("err = %.80v; want an *Error with the message as sent", err)
	}
	text := err.Error()
	if maxErrorText := 1 << 10; len(text) > 2*maxErrorText {
		t.Errorf("error text of %d bytes for a message of %d", len(text), len(msg))
	}
	if i := strings.IndexFunc(text, func(r rune) bool { return unicode.IsControl(r) || r == '\u202e' }); i >= 0 {
		t.Errorf("error text has a control character at %d: %q", i, text[:min(len(text), 80)])
	}
	if !strings.Contains(text, `\x1b]0;owned`) {
		t.Errorf("error text %q does not show the message's start, escaped", text[:min(len(text), 80)])
	}
}

func TestErrorIs(t *testing.T) {
	peer := &Error{Code: CodeMethodNotFound, Message: "no such thing"}
	wrapped := errors.Join(errors.New("context"), peer)
	if !errors.Is(wrapped, ErrMethodNotFound) {
		t.Error("errors.Is by code failed")
	}
	if errors.Is(peer, ErrInvalidParams) {
		t.Error("different codes compared equal")
	}
	var e *Error
	if !errors.As(wrapped, &e) || e.Message != "no such thing" {
		t.Errorf("errors.As: %v", e)
	}
}

func TestCodeString(t *testing.T) {
	for code, want := range map[Code]string{
		CodeParseError:     "parse error",
		CodeInvalidRequest: "invalid request",
		CodeMethodNotFound: "method not found",
		CodeInvalidParams:  "invalid params",
		CodeInternalError:  "internal error",
		-32002:             "-32002",
		0:                  "0",
	} {
		if got := code.String(); got != want {
			t.Errorf("Code(%d).String() = %q, want %q", int64(code), got, want)
		}
	}
}
