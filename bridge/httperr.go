package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/plainmcp/plainmcp/internal/redact"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// statusError turns a provider's error status into the server's error.
// The provider's own message is kept (short, with the key cut out) except
// for a refused key, whose message may quote part of it.
func (c *caller) statusError(status int, h http.Header, body []byte) error {
	data := map[string]any{"provider": c.provider, "status": status}
	if d, ok := retryAfter(h); ok {
		data["retryAfterSeconds"] = int(d.Round(time.Second) / time.Second)
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return c.errorf(jsonrpc.CodeInternalError, data, "the provider refused the API key (HTTP %d)", status)
	case status == http.StatusTooManyRequests:
		msg := "rate limited (HTTP 429)"
		if s, ok := data["retryAfterSeconds"]; ok {
			msg += fmt.Sprintf(", retry after %ds", s)
		}
		return c.errorf(jsonrpc.CodeInternalError, data, "%s%s", msg, c.providerText(body))
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		return c.errorf(jsonrpc.CodeInvalidParams, data, "the provider rejected the request (HTTP %d)%s", status, c.providerText(body))
	}
	return c.errorf(jsonrpc.CodeInternalError, data, "HTTP %d%s", status, c.providerText(body))
}

// providerText is ": message" from an error body: the message of either
// provider's JSON shape ({"error": {"message": …}}), else the body itself
// (an HTML page from a proxy, a stack trace), quoted. Either way it is the
// only clue to what went wrong, so it is kept, with the key cut out,
// control characters dropped and the length bounded.
func (c *caller) providerText(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	// The body was read only so far: it may end in the start of the key.
	text := redact.Cut(string(body), c.key)
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		text = redact.Text(e.Error.Message, c.key)
	}
	if text = excerpt(text); text == "" {
		return ""
	}
	return ": " + text
}

// excerpt is text a provider sent, fit to quote in an error: on one line,
// without control characters, at most maxErrorText bytes of it, quoted
// ("" for none).
func excerpt(text string) string {
	text = strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
	if text == "" {
		return ""
	}
	if len(text) > maxErrorText {
		text = cutUTF8(text, maxErrorText) + "…"
	}
	return fmt.Sprintf("%q", text)
}

func (c *caller) redact(s string) string {
	return redact.Text(s, c.key)
}

// errorf makes the error the server that asked gets: the key cut out,
// and never longer than maxErrorMessage, whatever a provider put into it
// (every provider text in it is an excerpt already).
func (c *caller) errorf(code jsonrpc.Code, data map[string]any, format string, args ...any) *jsonrpc.Error {
	msg := c.redact(fmt.Sprintf(format, args...))
	if len(msg) > maxErrorMessage {
		msg = cutUTF8(msg, maxErrorMessage) + "…"
	}
	e := jsonrpc.NewError(code, "%s: %s", c.provider, msg)
	if data != nil {
		e.Data, _ = json.Marshal(data)
	}
	return e
}

// unwrapURL drops the URL a *url.Error carries: its query or user-info
// may hold a secret.
func unwrapURL(err error) error {
	var u *url.Error
	if errors.As(err, &u) {
		return u.Err
	}
	return err
}
