package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The stateless era (2026-07-28) has no handshake: every request carries
// its own _meta (protocol version, client capabilities, client info), and a
// server that needs something from the client — a model completion, user
// input, the roots — answers tools/call, prompts/get or resources/read with
// an input-required result. The client fulfils those input requests with
// the same handlers the handshake era uses and retries the request, under a
// new id, with the answers and the server's opaque requestState.

// maxInputRounds bounds the input-required rounds of one request.
const maxInputRounds = 10

// errUnsupportedVersion matches a -32022 answer.
var errUnsupportedVersion = &jsonrpc.Error{Code: CodeUnsupportedVersion}

// maxLostRetries bounds re-issuing a request whose response was lost.
const maxLostRetries = 2

// inputMethods may answer with an input-required result.
var inputMethods = map[string]bool{"tools/call": true, "prompts/get": true, "resources/read": true}

const (
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
	metaLogLevel     = "io.modelcontextprotocol/logLevel"
)

// statelessWire is the wire of 2026-07-28: the session's metadata in
// every request, one version retry, input-required rounds, and a re-issue
// under a new id when the transport lost a response.
type statelessWire struct{ s *Session }

func (w statelessWire) roundTrip(ctx context.Context, r *request, result any) error {
	s := w.s
	versionRetried, lost, round := false, 0, 0
	for {
		_, env, err := s.exchange(ctx, r, s.requestMeta(), result)
		switch {
		case err == nil:
		case errors.Is(err, errUnsupportedVersion) && !versionRetried:
			// Retry once with a version the server offers (even the same
			// one: a server may reject a first request for its own reasons).
			versionRetried = true
			var rpcErr *jsonrpc.Error
			errors.As(err, &rpcErr)
			if v := supportedFrom(rpcErr.Data); v != "" {
				s.setStateless(v)
				continue
			}
			return err
		case errors.Is(err, jsonrpc.ErrResponseLost) && lost < maxLostRetries:
			// The spec's rule for a broken response stream: send the
			// request again under a new id.
			lost++
			s.log.Debug("mcpclient: response lost; sending the request again", "method", r.method, "attempt", lost+1)
			continue
		case errors.Is(err, jsonrpc.ErrResponseLost):
			return fmt.Errorf("mcpclient: sent %d times, the response was lost each time: %w", lost+1, err)
		default:
			return err
		}
		switch env.ResultType {
		case "", "complete": // absent means complete
			return nil
		case "input_required":
		default:
			return fmt.Errorf("%w: %s answered with resultType %q, which plainmcp does not know", ErrMalformedResult, r.method, env.ResultType)
		}
		if !inputMethods[r.method] {
			return fmt.Errorf("%w: %s answered input_required, which only tools/call, prompts/get and resources/read may", ErrMalformedResult, r.method)
		}
		if s.opts.ManualInput {
			return &InputRequiredError{Method: r.method, InputRequests: env.InputRequests, RequestState: env.RequestState}
		}
		if round++; round > maxInputRounds {
			return fmt.Errorf("mcpclient: %s still required input after %d rounds", r.method, maxInputRounds)
		}
		inputs, err := s.fulfil(ctx, env.InputRequests)
		if err != nil {
			return fmt.Errorf("calling %s: %w", r.method, err)
		}
		r.inputs, r.state = inputs, env.RequestState
		zero(result)
	}
}

// InputRequiredError is what a request returns, with Options.ManualInput
// set, when the server answered it with an input-required result: the
// caller fulfils InputRequests itself and sends the request again through
// Session.Call with "inputResponses" and "requestState" (unchanged) in its
// params.
type InputRequiredError struct {
	Method string
	// InputRequests maps a key of the server's to one request: an object
	// with method (sampling/createMessage, elicitation/create, roots/list)
	// and params.
	InputRequests json.RawMessage
	// RequestState is the server's opaque state, exactly as it sent it.
	RequestState json.RawMessage
}

func (e *InputRequiredError) Error() string {
	return fmt.Sprintf("mcpclient: %s requires input from the client", e.Method)
}

// supportedFrom picks our newest stateless version from an
// UnsupportedProtocolVersion error's data.supported.
func supportedFrom(data json.RawMessage) string {
	var d struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(data, &d) != nil {
		return ""
	}
	return pickVersion(d.Supported, statelessVersions)
}

// requestMeta is the session's _meta members for a stateless request,
// encoded once per version and log level.
func (s *Session) requestMeta() []byte { return *s.meta.Load() }

// encodeMeta (re)builds the request metadata: on a version change and on
// SetLogLevel.
func (s *Session) encodeMeta() {
	s.stateMu.Lock()
	version, level := s.version, s.logLevel
	s.stateMu.Unlock()
	if level == "" && s.opts.OnLog != nil {
		level = "info"
	}
	var b []byte
	add := func(key string, v any) {
		raw, err := marshalPlain(v)
		if err != nil {
			s.log.Error("mcpclient: encoding request metadata", "key", key, "error", err)
			return
		}
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, key...)
		b = append(b, `":`...)
		b = append(b, raw...)
	}
	add(metaVersion, version)
	add(metaCapabilities, s.opts.capabilities())
	add(metaClientInfo, s.opts.ClientInfo)
	if level != "" {
		add(metaLogLevel, level)
	}
	s.meta.Store(&b)
}

// inputRequest is one entry of an input-required result's inputRequests.
type inputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// fulfil answers a round of input requests through the host's handlers —
// the same ones that answer server requests in the handshake era — in key
// order, and returns the inputResponses object.
func (s *Session) fulfil(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
	var requests map[string]json.RawMessage
	if len(raw) == 0 {
		raw = json.RawMessage("{}") // a round that asks for nothing
	}
	if err := json.Unmarshal(raw, &requests); err != nil {
		return nil, fmt.Errorf("%w: inputRequests: %v", ErrMalformedResult, err)
	}
	keys := make([]string, 0, len(requests))
	for k := range requests {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	answers := make(map[string]any, len(requests))
	for _, k := range keys {
		var r inputRequest
		if err := json.Unmarshal(requests[k], &r); err != nil {
			return nil, fmt.Errorf("%w: input request %q: %v", ErrMalformedResult, k, err)
		}
		res, err := s.answerInput(ctx, &jsonrpc.Request{Method: r.Method, Params: r.Params})
		if err != nil {
			return nil, fmt.Errorf("input request %q (%s): %w", k, r.Method, err)
		}
		answers[k] = res
	}
	return marshalPlain(answers)
}

// answerInput runs the host handler for one input request.
func (s *Session) answerInput(ctx context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "sampling/createMessage", "elicitation/create", "roots/list":
	default:
		return nil, fmt.Errorf("%w: unknown input request method %q", ErrMalformedResult, req.Method)
	}
	if len(req.Params) == 0 {
		req.Params = json.RawMessage("{}")
	}
	res, err := s.handleRequest(ctx, req)
	if errors.Is(err, jsonrpc.ErrMethodNotFound) {
		return nil, fmt.Errorf("the server asked for %s, but no handler for it is set (and its capability was not declared)", req.Method)
	}
	return res, err
}
