package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/plainmcp/plainmcp/internal/reqinfo"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// exchange sends r once, under a new id, and decodes its response into
// result. meta is the stateless era's _meta members (nil in the handshake
// era). It returns the raw result (which the caller may keep) and what
// the stateless era reads besides the result's own fields.
//
// The timeout rule: a deadline of the caller's wins; a request whose ctx
// has none gets Options.RequestTimeout, which progress, if the request
// carries a token, pushes back up to MaxRequestTimeout.
func (s *Session) exchange(ctx context.Context, r *request, meta []byte, result any) (json.RawMessage, resultEnvelope, error) {
	r.meta = meta // for AppendJSON: the params go straight into the frame
	if r.info != nil {
		ctx = reqinfo.With(ctx, r.info)
	}
	var err error
	switch timeout := s.defaultTimeout(ctx, r.method); {
	case timeout == 0:
		err = s.conn.Call(ctx, r.method, r, &r.raw)
	case r.watch != nil && s.opts.progressResets():
		err = s.within(ctx, r.watch, timeout, s.opts.maxRequestTimeout(), r.method, func(ctx context.Context) error {
			return s.conn.Call(ctx, r.method, r, &r.raw)
		})
	default:
		tctx, cancel := context.WithTimeout(ctx, timeout)
		err = s.conn.Call(tctx, r.method, r, &r.raw)
		cancel()
		if err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
			err = &TimeoutError{Method: r.method, After: timeout}
		}
	}
	if err != nil {
		return nil, resultEnvelope{}, err
	}
	r.env = resultEnvelope{}
	err = decodeResult(r.method, r.raw, result, meta != nil, &r.env)
	return r.raw, r.env, err
}

// defaultTimeout is the bound a request gets from the session: none when
// the caller set a deadline, or the request is exempt (a listen stream).
func (s *Session) defaultTimeout(ctx context.Context, method string) time.Duration {
	if _, ok := ctx.Deadline(); ok || ctx.Value(noTimeoutKey{}) != nil {
		return 0
	}
	return s.opts.requestTimeout(method)
}

// noTimeoutKey marks a context whose requests are exempt from the default
// timeout: a subscriptions/listen stream lives as long as the session.
type noTimeoutKey struct{}

// resultEnvelope is what a stateless-era result may say besides its own
// fields. This package's result types embed it, so that one decode reads
// both; for other results it is scanned from the raw bytes.
type resultEnvelope struct {
	ResultType    string          `json:"resultType,omitempty"`
	InputRequests json.RawMessage `json:"inputRequests,omitempty"`
	RequestState  json.RawMessage `json:"requestState,omitempty"`
	TTLMs         int64           `json:"ttlMs,omitempty"`
	CacheScope    string          `json:"cacheScope,omitempty"`
}

func (e *resultEnvelope) envelope() *resultEnvelope { return e }

// enveloped is implemented by the result types that embed resultEnvelope.
type enveloped interface{ envelope() *resultEnvelope }

// decodeResult decodes raw into result (nil discards it, a
// *json.RawMessage takes it as it is) and, for the stateless era, returns
// its envelope. MCP results are objects: a null or missing one is an
// error, never an empty result.
func decodeResult(method string, raw json.RawMessage, result any, stateless bool, env *resultEnvelope) error {
	if len(raw) == 0 || string(raw) == "null" {
		return fmt.Errorf("%w: %s answered with a null result", ErrMalformedResult, method)
	}
	e, hasEnvelope := result.(enveloped)
	switch r := result.(type) {
	case nil:
	case *json.RawMessage:
		*r = raw
	default:
		if err := json.Unmarshal(raw, result); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrMalformedResult, method, err)
		}
	}
	switch {
	case !stateless:
	case hasEnvelope:
		*env = *e.envelope()
	default:
		if err := scanEnvelope(raw, env); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrMalformedResult, method, err)
		}
	}
	return nil
}

// scanEnvelope reads the envelope's members of a result without decoding
// the rest.
func scanEnvelope(raw json.RawMessage, env *resultEnvelope) error {
	var err error
	walkErr := rpcwire.Members(raw, func(key []byte, start, end int) bool {
		v := raw[start:end]
		switch string(key) {
		case `"resultType"`:
			err = json.Unmarshal(v, &env.ResultType)
		case `"inputRequests"`:
			env.InputRequests = v
		case `"requestState"`:
			env.RequestState = v
		}
		return err == nil
	})
	if walkErr != nil {
		return errors.New("the result is not a JSON object")
	}
	return err
}

// zero resets what result points to before it is decoded again.
func zero(result any) {
	if v := reflect.ValueOf(result); v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().SetZero()
	}
}

// TimeoutError is returned when a request got neither its answer nor
// progress within the session's RequestTimeout, or kept reporting
// progress past its MaxRequestTimeout (Capped). It matches
// context.DeadlineExceeded with errors.Is. The server was sent
// notifications/cancelled.
type TimeoutError struct {
	Method string
	After  time.Duration // the bound that fired
	Capped bool          // MaxRequestTimeout fired, not RequestTimeout

	progress bool // the request carried a progress token
}

func (e *TimeoutError) Error() string {
	if e.Capped {
		return fmt.Sprintf("mcpclient: %s reported progress but did not finish within %v", e.Method, e.After.Round(time.Millisecond))
	}
	if e.progress {
		return fmt.Sprintf("mcpclient: %s got neither a response nor progress within %v", e.Method, e.After.Round(time.Millisecond))
	}
	return fmt.Sprintf("mcpclient: %s got no response within %v", e.Method, e.After.Round(time.Millisecond))
}

// Is makes errors.Is(err, context.DeadlineExceeded) true.
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }
