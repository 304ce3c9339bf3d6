package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
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

// maxLostRetries bounds re-issuing a request whose response stream broke.
const maxLostRetries = 2

// inputMethods may answer with an input-required result.
var inputMethods = map[string]bool{"tools/call": true, "prompts/get": true, "resources/read": true}

const (
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
	metaLogLevel     = "io.modelcontextprotocol/logLevel"
)

// resultEnvelope is what every stateless-era result may say besides its
// own fields.
type resultEnvelope struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  json.RawMessage            `json:"requestState"`
}

// statelessCall sends one stateless-era request through to its final
// result: metadata on, version negotiation, input-required rounds, and a
// re-issue when the transport lost the response.
func (s *Session) statelessCall(ctx context.Context, method string, params, result any) error {
	base, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("calling %s: params: %w", method, err)
	}
	var inputs json.RawMessage // inputResponses of the next round
	var state json.RawMessage  // requestState of the next round, verbatim
	versionRetried, lost := false, 0
	for round := 0; ; {
		p, err := s.withRequestMeta(base, inputs, state)
		if err != nil {
			return fmt.Errorf("calling %s: params: %w", method, err)
		}
		var raw json.RawMessage
		err = s.callOnce(ctx, method, p, &raw)
		var rpcErr *jsonrpc.Error
		switch {
		case errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeUnsupportedVersion && !versionRetried:
			// Retry once with a version the server offers (even the same
			// one: a server may reject a first request for its own reasons).
			versionRetried = true
			if v := supportedFrom(rpcErr.Data); v != "" {
				s.setStateless(v)
				continue
			}
			return err
		case errors.As(err, &rpcErr) && rpcErr.Code == transport.CodeResponseLost && lost < maxLostRetries:
			lost++ // the stream broke: re-issue under a new id
			continue
		case err != nil:
			return err
		}
		var env resultEnvelope
		if err := json.Unmarshal(raw, &env); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrMalformedResult, method, err)
		}
		switch env.ResultType {
		case "", "complete": // absent means complete
			return jsonrpc.DecodeResult(method, raw, result)
		case "input_required":
		default:
			return fmt.Errorf("%w: %s answered with resultType %q, which plainmcp does not know", ErrMalformedResult, method, env.ResultType)
		}
		if !inputMethods[method] {
			return fmt.Errorf("%w: %s answered input_required, which only tools/call, prompts/get and resources/read may", ErrMalformedResult, method)
		}
		if round++; round > maxInputRounds {
			return fmt.Errorf("mcpclient: %s still required input after %d rounds", method, maxInputRounds)
		}
		if inputs, err = s.fulfil(ctx, env.InputRequests); err != nil {
			return fmt.Errorf("calling %s: %w", method, err)
		}
		state = env.RequestState
	}
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

// marshalParams encodes request params as a JSON object ("{}" for nil).
func marshalParams(params any) (json.RawMessage, error) {
	var raw json.RawMessage
	switch p := params.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		raw = p
	default:
		var err error
		if raw, err = marshalPlain(params); err != nil {
			return nil, err
		}
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("params must be a JSON object")
	}
	return raw, nil
}

// withRequestMeta returns params with this session's request metadata in
// _meta (merged with any _meta the caller gave) and, on a retry, the
// inputResponses and the requestState exactly as the server sent it.
func (s *Session) withRequestMeta(params, inputs, state json.RawMessage) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(params, &obj); err != nil {
		return nil, err
	}
	meta := map[string]json.RawMessage{}
	if m, ok := obj["_meta"]; ok && string(m) != "null" {
		if err := json.Unmarshal(m, &meta); err != nil {
			return nil, fmt.Errorf("_meta: %w", err)
		}
	}
	mine, err := s.requestMeta()
	if err != nil {
		return nil, err
	}
	for k, v := range mine {
		meta[k] = v
	}
	if obj["_meta"], err = marshalPlain(meta); err != nil {
		return nil, err
	}
	delete(obj, "inputResponses")
	delete(obj, "requestState")
	if inputs != nil {
		obj["inputResponses"] = inputs
	}
	if state != nil {
		obj["requestState"] = state
	}
	return marshalPlain(obj)
}

// requestMeta is the metadata every stateless-era request carries.
func (s *Session) requestMeta() (map[string]json.RawMessage, error) {
	s.stateMu.Lock()
	version, level := s.version, s.logLevel
	s.stateMu.Unlock()
	if level == "" && s.opts.OnLog != nil {
		level = "info"
	}
	m := map[string]any{
		metaVersion:      version,
		metaCapabilities: s.opts.capabilities(),
		metaClientInfo:   s.opts.ClientInfo,
	}
	if level != "" {
		m[metaLogLevel] = level
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		raw, err := marshalPlain(v)
		if err != nil {
			return nil, err
		}
		out[k] = raw
	}
	return out, nil
}

// inputRequest is one entry of an input-required result's inputRequests.
type inputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// fulfil answers a round of input requests through the host's handlers —
// the same ones that answer server requests in the handshake era — in key
// order, and returns the inputResponses object.
func (s *Session) fulfil(ctx context.Context, requests map[string]json.RawMessage) (json.RawMessage, error) {
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
