package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The stateless era (2026-07-28) has no handshake: every request carries
// its own _meta (protocol version, client capabilities, client info), and a
// server that needs something from the client — a model completion, user
// input, the roots — answers tools/call, prompts/get or resources/read with
// an input-required result. The client fulfils those input requests with
// the same handlers the handshake era uses and retries the request, under a
// new id, with the answers and the server's opaque requestState.

// maxInputRounds bounds the input-required rounds of one request, and
// maxInputsPerRound the input requests of one round: each may put a
// question to a person or cost a model completion, so 10 rounds of
// thousands each would be the server's to spend.
const (
	maxInputRounds    = 10
	maxInputsPerRound = 32
)

// errUnsupportedVersion matches a -32022 answer.
var errUnsupportedVersion = &jsonrpc.Error{Code: codeUnsupportedVersion}

// maxLostRetries bounds re-issuing a request whose response was lost.
const maxLostRetries = 2

// inputMethods may answer with an input-required result.
var inputMethods = map[string]bool{methodToolsCall: true, methodPromptsGet: true, methodResourcesRead: true}

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
	tries := retries{}
	round := 0
	for {
		_, env, err := s.exchange(ctx, r, s.requestMeta(), result)
		if err != nil {
			if tries.again(s, r, err) {
				continue
			}
			return tries.failure(err)
		}
		done, err := s.resultKind(r, env.ResultType)
		if done || err != nil {
			return err
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

// retries counts what a request was sent again for.
type retries struct {
	version bool // sent again with a version the server offers
	lost    int  // sent again after a lost response
}

// again reports whether the error is one to send the request again for:
// an unsupported version, once (even the same one: a server may reject a
// first request for its own reasons), or a lost response of a request
// safe to run twice (a broken response stream is a cancellation at the
// server), within a bound.
func (t *retries) again(s *Session, r *request, err error) bool {
	var rpcErr *jsonrpc.Error
	switch {
	case errors.Is(err, errUnsupportedVersion) && !t.version && errtype.As(err, &rpcErr):
		t.version = true
		v := supportedFrom(rpcErr.Data)
		if v != "" {
			s.setStateless(v)
		}
		return v != ""
	case errors.Is(err, jsonrpc.ErrResponseLost) && t.lost < maxLostRetries && s.repeatable(r):
		t.lost++
		s.log.Debug("mcpclient: response lost; sending the request again", "method", r.method, "attempt", t.lost+1)
		return true
	}
	return false
}

// failure is the error a request ends with when it is not sent again.
func (t *retries) failure(err error) error {
	switch {
	case !errors.Is(err, jsonrpc.ErrResponseLost):
		return err
	case t.lost == 0:
		return fmt.Errorf("mcpclient: not sent again, as it may not be safe to run twice: %w", err)
	}
	return fmt.Errorf("mcpclient: sent %d times, the response was lost each time: %w", t.lost+1, err)
}

// resultKind checks a result's resultType: done for a final result (a
// task, for the caller to drive, included), an error for one the request
// may not get, neither for input required.
func (s *Session) resultKind(r *request, resultType string) (done bool, err error) {
	switch resultType {
	case "", "complete": // absent means complete
		return true, nil
	case "input_required":
		if !inputMethods[r.method] {
			return false, fmt.Errorf("%w: %s answered input_required, which only tools/call, prompts/get and resources/read may", ErrMalformedResult, r.method)
		}
		return false, nil
	case "task":
		// The tasks extension: only tools/call, and only when the client
		// declared the extension (Options.Tasks).
		if r.method == methodToolsCall && s.opts.Tasks != nil {
			return true, nil
		}
		return false, fmt.Errorf("%w: %s answered with a task, which only tools/call may, and only when the client declared %s", ErrMalformedResult, r.method, mcpext.Tasks)
	}
	return false, fmt.Errorf("%w: %s answered with resultType %q, which plainmcp does not know", ErrMalformedResult, r.method, resultType)
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
		raw, err := rpcwire.Marshal(v)
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
	add(metaCapabilities, s.opts.capabilities(EraStateless))
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
	if len(requests) > maxInputsPerRound {
		return nil, fmt.Errorf("%w: %d input requests in one round; at most %d are answered", ErrMalformedResult, len(requests), maxInputsPerRound)
	}
	keys := make([]string, 0, len(requests))
	for k := range requests {
		keys = append(keys, k)
	}
	sortStrings(keys) // a stable order of answers, so a test can read them
	answers := make(map[string]any, len(requests))
	for _, k := range keys {
		var r inputRequest
		if err := json.Unmarshal(requests[k], &r); err != nil {
			return nil, fmt.Errorf("%w: input request %q: %v", ErrMalformedResult, k, err)
		}
		res, err := s.AnswerInput(ctx, r.Method, r.Params)
		if err != nil {
			return nil, fmt.Errorf("input request %q (%s): %w", k, r.Method, err)
		}
		answers[k] = res
	}
	return rpcwire.Marshal(answers)
}

// AnswerInput answers one input request — method sampling/createMessage,
// elicitation/create or roots/list, with its params — through the host's
// handler for it (Options.Sampling, Elicitation, Roots), as the session
// does in an input-required round: for a caller that fulfils input
// requests itself (Options.ManualInput, or an extension's own, such as a
// task's inputRequests).
func (s *Session) AnswerInput(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case methodSampling, methodElicitation, methodRootsList:
	default:
		return nil, fmt.Errorf("%w: unknown input request method %q", ErrMalformedResult, method)
	}
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	res, err := s.handleRequest(ctx, &jsonrpc.Request{Method: method, Params: params})
	if errors.Is(err, jsonrpc.ErrMethodNotFound) {
		return nil, fmt.Errorf("the server asked for %s, but no handler for it is set (and its capability was not declared)", method)
	}
	return res, err
}

// repeatMethods are safe to send again when a response was lost: they
// only read.
var repeatMethods = map[string]bool{
	methodDiscover: true, methodToolsList: true, methodPromptsList: true, methodResourcesList: true,
	methodResourceTemplatesList: true, "skills/list": true, "skills/get": true, methodResourcesRead: true,
	methodPromptsGet: true, methodComplete: true, "tasks/get": true,
}

// repeatable reports whether r may be sent again after its response was
// lost: a read, or — with Options.RepeatSafeTools — a call of a tool the
// server annotated read-only or idempotent.
func (s *Session) repeatable(r *request) bool {
	if repeatMethods[r.method] {
		return true
	}
	if r.method != methodToolsCall || !s.opts.RepeatSafeTools {
		return false
	}
	var p struct {
		Name string `json:"name"`
	}
	return json.Unmarshal(r.params, &p) == nil && s.headers.isRepeatable(p.Name)
}

func isTrue(b *bool) bool { return b != nil && *b }

// sortStrings sorts a few strings (at most maxInputsPerRound) in place
// by insertion. slices.Sort would do, but its pdqsort for strings is
// 15 KB of every stripped binary that links mcpclient (make size).
func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
