package streamhttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Small judgements of an HTTP answer: a session the server ended, the
// advice of Retry-After, an unreachable server, a header or body quoted
// within bounds.

// expired reports whether an error answer says the session is gone: 404
// to a request that carried a session id, as the specification says, or
// 400 whose body says the session is unknown, as some servers answer after
// a restart. The session is forgotten.
func (h *streamable) expired(resp *http.Response, sentSession string, body []byte) bool {
	if sentSession == "" {
		return false
	}
	stale := resp.StatusCode == http.StatusNotFound ||
		resp.StatusCode == http.StatusBadRequest && mentionsStaleSession(body)
	if stale {
		h.forgetSession(sentSession)
	}
	return stale
}

// mentionsStaleSession reports whether an error body says the session id
// is unknown or invalid ("Bad Request: No valid session ID provided",
// "Session not found", …).
func mentionsStaleSession(body []byte) bool {
	s := strings.ToLower(string(body))
	if !strings.Contains(s, "session") {
		return false
	}
	for _, w := range []string{"not found", "unknown", "invalid", "no valid", "expired", "does not exist", "terminated"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// isUnreachable reports a failure to connect at all, as opposed to one on
// a connection that worked.
func isUnreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// retryAfterOf reads a 429 or 503 answer's Retry-After: seconds, or an
// HTTP date.
func retryAfterOf(resp *http.Response) time.Duration {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0
	}
	v := strings.TrimSpace(resp.Header.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(min(n, 24*3600)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0).Round(time.Second)
	}
	return 0
}

// fits reports whether waiting d still leaves ctx time for the exchange.
func fits(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || time.Until(deadline) > d
}

// closeShort closes a body it does not need, reading it first only if it
// is short and already sized (so the connection can be reused without
// waiting on an open-ended body).
func closeShort(resp *http.Response) {
	if resp.ContentLength >= 0 && resp.ContentLength <= 4<<10 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	}
	resp.Body.Close()
}

// truncateHeader shortens a header value quoted in an error.
func truncateHeader(v string) string {
	if len(v) > 80 {
		return v[:80] + "…"
	}
	return v
}

// errorBodyLimit bounds the body of an error answer that is read.
const errorBodyLimit = 64 << 10
