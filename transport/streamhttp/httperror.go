package streamhttp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// HTTPError, and how both transports make an error of an HTTP answer that
// carries no message they can use: the start of its body quoted, redacted
// and bounded; a JSON-RPC error in it made the request's response; the
// advice of its Retry-After; a server's header quoted within bounds.

// HTTPError is an HTTP answer that carried no JSON-RPC message: a status
// the transport could not turn into a response. It matches
// transport.ErrRefused (errors.Is), which is what era detection looks at;
// the fallback to HTTP+SSE looks at StatusCode.
type HTTPError struct {
	Method     string // the HTTP method
	URL        string // redacted: no user info, no query
	StatusCode int
	Body       string        // the start of the body, if any
	RetryAfter time.Duration // what a 429 or 503 advised, if it did
}

// Is makes errors.Is(err, transport.ErrRefused) true.
func (e *HTTPError) Is(target error) bool { return target == transport.ErrRefused }

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("streamhttp: %s %s: %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" (the server asks to retry after %v)", e.RetryAfter)
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// refused turns a non-2xx answer into what the client needs: a session
// the server ended is ErrSessionExpired; a JSON-RPC error in the body of
// the answer to a request becomes that request's response, returned as a
// frame (modern servers answer 400 with -32022, -32020 …); anything else
// is an *HTTPError.
func (h *streamable) refused(resp *http.Response, m *outgoing, sentSession string) ([]byte, error) {
	body := bodyHead(resp.Body, errorBodyLimit)
	if h.expired(resp, sentSession, body) {
		return nil, fmt.Errorf("%w (POST answered %d %s)", transport.ErrSessionExpired, resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	if m.isRequest() {
		if e := errorInBody(body); e != nil {
			return rpcwire.AppendError(nil, m.id, e), nil
		}
	}
	return nil, &HTTPError{Method: http.MethodPost, URL: redactURL(h.b.endpoint), StatusCode: resp.StatusCode,
		Body: redactedExcerpt(h.b, body), RetryAfter: retryAfterOf(resp)}
}

// failedPost is refused for a message sent with Write: an error response
// goes to Read.
func (h *streamable) failedPost(resp *http.Response, m *outgoing, sentSession string) error {
	answer, err := h.refused(resp, m, sentSession)
	if answer != nil {
		h.deliver(answer)
	}
	return err
}

// errorInBody returns the JSON-RPC error object in body, if it holds one.
func errorInBody(body []byte) *jsonrpc.Error {
	var env struct {
		Error *jsonrpc.Error `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil || env.Error == nil || (env.Error.Code == 0 && env.Error.Message == "") {
		return nil
	}
	return env.Error
}

// errorBodyLimit bounds the body of an error answer that is read.
const errorBodyLimit = 64 << 10

// bodyHead reads at most limit bytes of an error answer's body and closes
// it: enough to quote or to find a JSON-RPC error in. A longer body is
// cut, not refused, so that the error still says what came.
func bodyHead(body io.ReadCloser, limit int) []byte {
	defer body.Close()
	b, _ := io.ReadAll(io.LimitReader(body, int64(limit)))
	return b
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

// excerptLen bounds the start of an HTTP error body quoted in an error.
const excerptLen = 200

// statusError closes resp's body and returns an error naming the status
// and quoting the start of the body, unless the status is 2xx.
func statusError(base *httpBase, resp *http.Response, method, where string) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	defer resp.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(resp.Body, excerptLen))
	return &HTTPError{Method: method, URL: where, StatusCode: resp.StatusCode, Body: redactedExcerpt(base, head)}
}

// truncateHeader shortens a header value quoted in an error.
func truncateHeader(v string) string {
	if len(v) > 80 {
		return v[:80] + "…"
	}
	return v
}

// urlErrorCause drops the *url.Error around a client error: its message
// repeats the URL with its query, which may hold a key or a session.
func urlErrorCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
