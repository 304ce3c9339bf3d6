package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
)

// Defaults of the HTTP options that both adapters share.
const (
	defaultMaxRetries   = 2
	defaultMaxRetryWait = 30 * time.Second
	defaultTimeout      = 2 * time.Minute
	maxResponseBytes    = 16 << 20
	maxErrorText        = 300
	maxErrorBody        = 64 << 10
	maxErrorMessage     = 1 << 10
)

// HTTPOptions tune how an adapter talks to its provider. The zero value
// gives the defaults.
type HTTPOptions struct {
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
	// MaxRetries bounds the retries of a request that failed with 429, a
	// 5xx status or a network error (0 means 2, negative means none).
	MaxRetries int
	// MaxRetryWait is the longest wait before a retry: a Retry-After
	// beyond it, or beyond the context's deadline, fails the request at
	// once, saying when to come back (0 means 30 seconds).
	MaxRetryWait time.Duration
	// Timeout bounds each attempt (0 means 2 minutes).
	Timeout time.Duration
}

// caller posts JSON to one provider endpoint. key is the credential,
// sent (when set) as the header keyHeader, after keyPrefix, only to an
// endpoint fit for it (see secureForKey); it is cut out of any text that
// goes into an error.
type caller struct {
	provider  string
	url       string
	header    http.Header // sent with every request, besides the key's
	key       secret.String
	keyHeader string
	keyPrefix string // "Bearer ", say
	opts      HTTPOptions
}

// baseURL is a provider's base URL as configured, without a trailing
// slash, or def when none is.
func baseURL(configured, def string) string {
	if base := strings.TrimRight(configured, "/"); base != "" {
		return base
	}
	return def
}

// backoff is the wait before retry n (from 1) when the provider named
// none. (The tests that retry run in a synctest bubble, where it passes
// at once.)
func backoff(n int) time.Duration { return time.Duration(n) * 500 * time.Millisecond }

// A decoder reads a 2xx answer: its Content-Type and its body, which
// ends with an error after maxResponseBytes.
type decoder func(contentType string, body io.Reader) error

// post sends body and decodes the 2xx answer with decode. Failures come
// back as *jsonrpc.Error, ready for the server that asked, except a
// cancelled ctx, which comes back as ctx.Err(). Only attempts that got no
// 2xx answer are retried: a stream that broke half-way has been shown.
func (c *caller) post(ctx context.Context, body any, decode decoder) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return jsonrpc.NewError(jsonrpc.CodeInternalError, "%s: encoding the request: %v", c.provider, err)
	}
	retries := c.opts.MaxRetries
	if retries == 0 {
		retries = defaultMaxRetries
	}
	maxWait := c.opts.MaxRetryWait
	if maxWait <= 0 {
		maxWait = defaultMaxRetryWait
	}
	for attempt := 0; ; attempt++ {
		wait, err := c.once(ctx, payload, decode)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if wait < 0 || attempt >= retries {
			return err
		}
		if wait == 0 {
			wait = backoff(attempt + 1)
		}
		if wait > maxWait || beyondDeadline(ctx, wait) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

func beyondDeadline(ctx context.Context, wait time.Duration) bool {
	d, ok := ctx.Deadline()
	return ok && time.Until(d) < wait
}

// once makes one attempt. On failure, wait says whether to retry: -1
// never, 0 after the usual backoff, more after that long (Retry-After).
func (c *caller) once(ctx context.Context, payload []byte, decode decoder) (wait time.Duration, err error) {
	timeout := c.opts.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.url, bytes.NewReader(payload))
	if err != nil {
		return -1, c.errorf(jsonrpc.CodeInternalError, nil, "bad endpoint: %v", unwrapURL(err))
	}
	req.Header = c.header.Clone()
	req.Header.Set("Content-Type", "application/json")
	if !c.key.IsZero() {
		if !secureForKey(req.URL) {
			return -1, c.errorf(jsonrpc.CodeInvalidRequest, nil,
				"refusing to send the API key over plain http to %s, which is not loopback: use https", req.URL.Host)
		}
		req.Header.Set(c.keyHeader, c.keyPrefix+c.key.Reveal())
	}
	resp, err := c.client().Do(req)
	if err != nil {
		var redirect *redirectError
		if errors.As(err, &redirect) {
			return -1, &causedError{rpc: c.errorf(jsonrpc.CodeInternalError, nil,
				"the provider redirected the request to %s, another origin: not followed, so neither the key nor the conversation went there", redirect.to), cause: ErrRedirected}
		}
		if ctx.Err() == nil && actx.Err() != nil {
			return 0, c.errorf(jsonrpc.CodeInternalError, nil, "no answer within %v", timeout)
		}
		return 0, c.errorf(jsonrpc.CodeInternalError, nil, "request failed: %v", unwrapURL(err))
	}
	defer resp.Body.Close()
	body := &limitedReader{r: resp.Body, n: maxResponseBytes}
	if resp.StatusCode/100 == 2 {
		if err := decode(resp.Header.Get("Content-Type"), body); err != nil {
			if ctx.Err() == nil && actx.Err() != nil {
				return -1, c.errorf(jsonrpc.CodeInternalError, nil, "no whole answer within %v", timeout)
			}
			return -1, c.errorf(jsonrpc.CodeInternalError, nil, "malformed response: %v", c.quotable(err))
		}
		return 0, nil
	}
	// An error body is read only as far as its quotation needs.
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if err != nil {
		data = nil // the status says enough
	}
	return retryWait(resp), c.statusError(resp.StatusCode, resp.Header, data)
}

// limitedReader fails a read past n bytes, where io.LimitReader would
// end quietly and a truncated body might parse.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if int64(len(p)) > l.n+1 {
		p = p[:l.n+1] // one more than allowed, to notice the excess
	}
	n, err := l.r.Read(p)
	if int64(n) > l.n {
		return 0, fmt.Errorf("response larger than %d bytes", maxResponseBytes)
	}
	l.n -= int64(n)
	return n, err
}

// retryWait reads whether and when a failed status may be retried.
func retryWait(resp *http.Response) time.Duration {
	s := resp.StatusCode
	if s != http.StatusTooManyRequests && s < 500 {
		return -1
	}
	if d, ok := retryAfter(resp.Header); ok {
		return max(d, time.Millisecond)
	}
	return 0
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 32); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// message posts req and decodes the provider's answer. Under WithStream
// it asks for an event stream (req's stream flag, wantStream, set and
// Accept: text/event-stream) and reads one if the provider streams, else
// one JSON body, whose text then goes to WithStream's onText whole.
func (c *caller) message(ctx context.Context, req any, wantStream *bool,
	stream func(io.Reader, func(string)) (*mcpclient.CreateMessageResult, error),
	whole func([]byte) (*mcpclient.CreateMessageResult, error)) (*mcpclient.CreateMessageResult, error) {
	onText := streamFrom(ctx)
	if onText != nil {
		*wantStream = true
		c.header.Set("Accept", "text/event-stream")
	}
	var res *mcpclient.CreateMessageResult
	err := c.post(ctx, req, func(contentType string, body io.Reader) error {
		var err error
		if onText != nil && isEventStream(contentType) {
			res, err = stream(body, onText)
			return err
		}
		data, err := firstValue(body)
		if err != nil {
			return err
		}
		if res, err = whole(data); err == nil && onText != nil {
			streamWhole(res, onText)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// firstValue reads the JSON value a body begins with: an answer that is
// whole ends the call when it is in, whether or not the body ends there
// (a provider may hold its connection open after it).
func firstValue(body io.Reader) (json.RawMessage, error) {
	var raw json.RawMessage
	if err := json.NewDecoder(body).Decode(&raw); err != nil {
		return nil, err
	}
	return raw, nil
}
