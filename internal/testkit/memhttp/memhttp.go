// Package memhttp hands HTTP requests straight to a handler, in memory:
// no listener, no connection, no goroutine of its own. Tests use it to
// reach a fake server from inside a testing/synctest bubble, where a
// goroutine blocked on a real socket would keep the bubble's clock from
// moving; a Retry-After or a backoff then passes at once.
//
// The handler runs on the caller's goroutine and its whole answer is
// recorded before the client sees any of it, so it suits answers that
// end (JSON, a status, a finished event stream), not a stream held open.
package memhttp

import (
	"net/http"
	"net/http/httptest"
)

// Transport is an http.RoundTripper that answers every request with
// Handler. It is safe for concurrent use if Handler is.
type Transport struct {
	Handler http.Handler
}

// RoundTrip serves req with t.Handler and returns the recorded response.
func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.Handler.ServeHTTP(rec, req)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// Client returns a client whose every request h answers in memory,
// whatever host its URL names.
func Client(h http.Handler) *http.Client {
	return &http.Client{Transport: Transport{Handler: h}}
}
